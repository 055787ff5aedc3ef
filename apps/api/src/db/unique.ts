/**
 * True when a write failed on a unique index (PostgreSQL 23505), whichever driver raised it and
 * however drizzle wrapped it. Services check uniqueness first to answer a 422; this catches the
 * race of two admins saving the same key at once, so it is still a 422 and never a 500.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth += 1) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
