import { z } from 'zod';
import { csvExport, endpoint } from './endpoint.ts';
import { Id, Kes, Notice } from './common.ts';
import { Bonus, BonusPayment, kesInput } from './clients.ts';
import { ListCounts, listFilterQuery, listQuery } from './lists.ts';

/** Totals boxes: admins only (absent for staff). */
const BonusTotals = z.object({ total_bonus: Kes.optional(), paid_bonus: Kes.optional(), pending_bonus: Kes.optional() });

const BonusPage = BonusTotals.merge(ListCounts).extend({ bonuses: z.array(Bonus) });

export const listBonuses = endpoint({
  method: 'GET',
  path: '/api/bonuses',
  tag: 'bonuses',
  summary: 'All bonuses, newest first, paged (staff: their clients; totals for admins)',
  access: 'view:bonuses',
  query: listQuery('bonuses'),
  response: BonusPage,
});

export const searchBonuses = endpoint({
  method: 'GET',
  path: '/api/bonuses/search',
  tag: 'bonuses',
  summary: 'Bonuses whose client name or phone contains the search text, paged',
  access: 'view:bonuses',
  query: listQuery('bonuses'),
  response: BonusPage,
});

export const paidBonuses = endpoint({
  method: 'GET',
  path: '/api/bonuses/paid',
  tag: 'bonuses',
  summary:
    'Bonus payments, newest first, paged. With from/to the totals follow the days: paid_bonus is what was paid in them, total_bonus and pending_bonus are over the bonuses earned in them',
  access: 'view:bonuses',
  query: listQuery('paidBonuses'),
  response: BonusTotals.merge(ListCounts).extend({ bonuses: z.array(BonusPayment) }),
});

export const unpaidBonuses = endpoint({
  method: 'GET',
  path: '/api/bonuses/unpaid',
  tag: 'bonuses',
  summary: 'Bonuses not yet fully paid, newest first, paged and searchable',
  access: 'view:bonuses',
  query: listQuery('unpaidBonuses'),
  response: BonusPage,
});

export const BonusPaymentForm = z.object({
  client_id: Id,
  amount: kesInput('The amount').refine((n) => n > 0, 'The amount must be more than 0'),
  description: z
    .string({ message: 'The description is required' })
    .trim()
    .min(1, 'The description is required')
    .max(200, 'The description may not be longer than 200 characters'),
});
export type BonusPaymentForm = z.input<typeof BonusPaymentForm>;

export const recordBonusPayment = endpoint({
  method: 'POST',
  path: '/api/bonuses/pay',
  tag: 'bonuses',
  summary: "Record a bonus payment for a client (admin): settles their pending bonuses oldest first",
  access: 'pay:bonuses',
  body: BonusPaymentForm,
  response: Notice,
});

export const bonusTexts = {
  paymentRecorded: 'Bonus payment recorded successfully',
  nothingPending: 'This client has no unpaid bonus',
  abovePending: (pending: string) => `The amount may not be more than the unpaid bonus of ${pending}`,
} as const;

export const exportBonuses = csvExport({
  path: '/api/bonuses/export',
  tag: 'bonuses',
  summary: 'CSV of the bonuses, filtered by the search text',
  access: 'view:bonuses',
  query: listFilterQuery('bonuses'),
});

export const exportPaidBonuses = csvExport({
  path: '/api/bonuses/paid/export',
  tag: 'bonuses',
  summary: 'CSV of the bonus payments, filtered and ordered as the list',
  access: 'view:bonuses',
  query: listFilterQuery('paidBonuses'),
});

export const exportUnpaidBonuses = csvExport({
  path: '/api/bonuses/unpaid/export',
  tag: 'bonuses',
  summary: 'CSV of the unpaid bonuses, filtered and ordered as the list',
  access: 'view:bonuses',
  query: listFilterQuery('unpaidBonuses'),
});
