// The C2B confirmation's first read: its look-ups of a payment in one statement.
import { sql, type SQL } from 'drizzle-orm';
import { rows } from '../../../db/rows.ts';
import { betCategories, clients, mpesaPayments, tipsSubscribers, type SaleBlock } from '../../../db/schema/index.ts';
import type { Queryable } from '../../../db/client.ts';
import { jsonValue, type TypedColumn } from '../../../db/columns.ts';

/**
 * A C2B confirmation's first look-ups, in one read: a receipt-less STK payment (confirmed only by an
 * STK query) from the phone of this hash, of this amount, in the last two days (the oldest, locked),
 * when `waiting` says what to look for; and the bet category whose code the account starts with
 * (the longest such code; none for an empty account).
 */
export async function receiptlessStkPaymentAndCategory<T>(
  tx: Queryable,
  waiting: { phoneHash: string; amountCents: number } | null,
  account: string,
  /** The sender's phone hash: the subscribers with it are read too (two at most: one decides, two do not). */
  senderHash: string | null,
  /**
   * A column read for each of those subscribers, answered typed in `also`: given the subscriber
   * (`s.id`) and the category the account names (null when none).
   */
  perSender: (subscriberId: SQL, namedCategoryId: SQL) => TypedColumn<T>,
  /** SQL true when the payer is an erased person (read with the rest, for a payment nobody matches). */
  payerErased?: SQL,
  /** SQL text: why no sale may be made to the payer (self-excluded, under 18), null when one may (src/db/sale-blocks.ts). */
  payerBlocked?: SQL,
  /** SQL true when the sender must first declare they are 18 or older (decision 066). */
  payerUndeclared?: SQL,
): Promise<{
  waitingId: number | null;
  category: { id: number; code: string } | null;
  subscribersOfSender: { id: number; name: string; phone: string; also: T }[] | undefined;
  /** The one live client with the sender's phone (null: none or two); undefined without a sender's hash. */
  clientOfSender: number | null | undefined;
  /** Whether `payerErased` held; undefined when it was not given. */
  payerErased: boolean | undefined;
  /** What `payerBlocked` answered. */
  payerBlocked: SaleBlock | null;
  /** Whether `payerUndeclared` held (false when it was not given). */
  payerUndeclared: boolean;
}> {
  const stk = waiting
    ? sql`(select id from ${mpesaPayments}
            where trans_id is null and source = 'stk' and amount_cents = ${waiting.amountCents}
              and sender_phone is not null and encode(sha256(convert_to(sender_phone, 'UTF8')), 'hex') = ${waiting.phoneHash}
              and received_at > now() - interval '2 days'
            order by received_at limit 1
              for update)`
    : sql`null::bigint`;
  const alsoOfSender = perSender(sql`s.id`, sql`c.id`);
  const ofSender = senderHash
    ? sql`(select coalesce(json_agg(json_build_object('id', s.id, 'name', s.name, 'phone', s.phone, 'also', ${alsoOfSender.sql})), '[]'::json)
             from (select id, name, phone from ${tipsSubscribers} where phone_hash = ${senderHash} limit 2) s)`
    : sql`null::json`;
  const clientsOfSender = senderHash
    ? sql`(select coalesce(json_agg(k.id), '[]'::json)
             from (select id from ${clients} where phone_hash = ${senderHash} and deleted_at is null limit 2) k)`
    : sql`null::json`;
  const [found] = await rows<{
    waiting_id: string | number | null;
    id: number | null;
    code: string | null;
    of_sender: unknown;
    clients_of_sender: unknown;
    payer_erased: boolean | null;
    payer_blocked: SaleBlock | null;
    payer_undeclared: boolean | null;
  }>(
    tx,
    sql`select ${stk} as waiting_id, c.id, c.code, ${ofSender} as of_sender, ${clientsOfSender} as clients_of_sender,
               ${payerErased ?? sql`null::boolean`} as payer_erased, ${payerBlocked ?? sql`null::text`} as payer_blocked,
               ${payerUndeclared ?? sql`null::boolean`} as payer_undeclared
          from (select 1) one
          left join lateral (select id, code from ${betCategories}
                              where ${account} <> '' and ${account} like upper(code) || '%'
                              order by length(code) desc limit 1) c on true`,
  );
  return {
    waitingId: found?.waiting_id != null ? Number(found.waiting_id) : null,
    category: found?.id != null ? { id: Number(found.id), code: found.code! } : null,
    subscribersOfSender:
      senderHash && found
        ? (jsonValue(found.of_sender) as { id: number; name: string; phone: string; also: unknown }[]).map((s) => ({
            id: Number(s.id),
            name: s.name,
            phone: s.phone,
            also: alsoOfSender.read(s.also),
          }))
        : undefined,
    clientOfSender: senderHash && found ? onlyIdOf(found.clients_of_sender) : undefined,
    payerErased: payerErased && found ? found.payer_erased === true : undefined,
    payerBlocked: found?.payer_blocked ?? null,
    payerUndeclared: found?.payer_undeclared === true,
  };
}

/** The id of a JSON list of at most two ids when it holds exactly one (two people sharing a number decide nothing). */
function onlyIdOf(list: unknown): number | null {
  const ids = jsonValue(list) as (number | string)[];
  return ids.length === 1 ? Number(ids[0]) : null;
}
