import { sql, type SQL } from 'drizzle-orm';
import { SALE_LEVERS, type SaleLever } from '@betdesk/contract';
import { promoCodeUses } from '../../db/schema/index.ts';

/**
 * The one place that answers "which lever made this sale" (decision 091). Each lever is one
 * branch: a select yielding, per sale it made, exactly these columns:
 *
 *   subscription_id  bigint  the sale (subscriptions.id)
 *   lever            text    the lever's name, one of SALE_LEVERS
 *   source_id        bigint  what pulled it: the promo code, the referrer, the agent, the trial, the pause
 *   discount_cents   bigint  the discount given on this sale (0 when none)
 *   commission_cents bigint  the commission owed for this sale (0 when none)
 *
 * A lever that joins (referral, agent, trial, pause) adds its branch here and nothing else changes.
 */
export const LEVER_BRANCHES: Partial<Record<Exclude<SaleLever, 'none'>, SQL>> = {
  code: sql`select u.subscription_id, 'code'::text as lever, u.code_id::bigint as source_id,
                   u.discount_cents::bigint as discount_cents, 0::bigint as commission_cents
              from ${promoCodeUses} u where u.status = 'used' and u.subscription_id is not null`,
};

/** A lever's rank in SALE_LEVERS: the first lever of a sale's several wins. */
function precedenceSql(): SQL {
  const cases = SALE_LEVERS.map((l, i) => sql`when ${l} then ${i}`);
  return sql`case b.lever ${sql.join(cases, sql` `)} end`;
}

/**
 * One row per sale that any lever made: its lever (the first by precedence), that lever's source,
 * and the discount and commission of all its levers summed (a cost is never lost to precedence).
 * A sale not in it was made by no lever.
 */
export function saleLeversSql(): SQL {
  const branches = Object.values(LEVER_BRANCHES);
  return sql`select subscription_id,
                    (array_agg(lever order by ${precedenceSql()}, source_id))[1] as lever,
                    (array_agg(source_id order by ${precedenceSql()}, source_id))[1] as source_id,
                    sum(discount_cents)::bigint as discount_cents,
                    sum(commission_cents)::bigint as commission_cents
               from (${sql.join(branches, sql` union all `)}) b
              group by subscription_id`;
}
