/**
 * Transactions that lost a race on PostgreSQL: a deadlock (40P01), where PostgreSQL rolls one of two
 * transactions back, or a serialization failure (40001). Neither says anything is wrong with the
 * work: run again, it normally succeeds (decision 054). The embedded database runs one transaction
 * at a time and never raises them.
 */

/** The SQLSTATE of a write that failed, whichever driver raised it and however drizzle wrapped it. */
export function sqlStateOf(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

/** Codes that mean "this transaction lost a race; run it again". */
const LOST_RACE = new Set(['40P01', '40001']);

/** True when the transaction was rolled back for a deadlock or a serialization failure. */
export function isLostRace(error: unknown): boolean {
  const code = sqlStateOf(error);
  return code !== null && LOST_RACE.has(code);
}

export interface RaceRetry {
  /** How many times the work runs at most (the first try included). */
  tries: number;
  /** The longest wait before a try, in milliseconds (each wait is random up to it: two losers do not meet again). */
  maxWaitMs: number;
}

/** Five tries, each after a random wait of up to 20, 40, 80, 160 ms: about a third of a second at worst. */
export const RACE_RETRY: RaceRetry = { tries: 5, maxWaitMs: 20 };

/**
 * Runs `work` (a whole transaction) again while it loses a race, up to `retry.tries` times, after a
 * short random wait that doubles each time. Any other failure, or the last try's, is thrown.
 */
export async function retryingLostRaces<T>(work: () => Promise<T>, retry: RaceRetry = RACE_RETRY): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= retry.tries || !isLostRace(error)) throw error;
      const wait = Math.random() * retry.maxWaitMs * 2 ** (attempt - 1);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
