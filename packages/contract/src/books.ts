import { z } from 'zod';
import { ApprovalCodeForm } from './approval-code.ts';
import { endpoint } from './endpoint.ts';

/**
 * The books periods (decision 075): a month an admin closes after filing its VAT return (with the
 * return's reference), a second admin confirming with their own authenticator code; reopening is asked
 * and confirmed the same way. A closed month's return, Tax screen and money bridge read what they
 * read when it closed; what comes later for it is posted in the open month.
 * Lives in: packages/contract/src/books.ts
 */

export const BOOKS_PERIOD_STATES = ['open', 'closing', 'closed', 'reopening'] as const;

export const booksTexts = {
  notEnded: (month: string) => `${month} has not ended yet (Nairobi time): a month closes after it ends`,
  alreadyClosed: (month: string) => `${month} is already closed`,
  alreadyClosing: (month: string) => `${month} is already waiting for a second admin to confirm its close`,
  notAwaiting: (month: string) => `${month} has nothing waiting for confirmation`,
  notClosed: (month: string) => `${month} is not closed`,
  ownAsk: 'A second admin must confirm: you asked for this yourself',
  noSecondFactor: 'Turn on your second factor (My profile) before confirming',
  wrongCode: 'That code is not right: enter the current code from your authenticator app',
  closeAsked: (month: string) => `Closing ${month} waits for a second admin to confirm with their code`,
  closed: (month: string) => `${month} is closed`,
  reopenAsked: (month: string) => `Reopening ${month} waits for a second admin to confirm with their code`,
  reopened: (month: string) => `${month} is open again`,
  referenceRequired: "Enter the filed return's reference",
  tiedAdmin: 'A second admin must confirm: not one whose admin rights came from the admin who asked, or gave them theirs',
  coolingOff: (until: string) => `New admins may confirm a month only after their cooling-off period: from ${until}`,
};

export const BooksMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Choose a month as YYYY-MM');

/** How a closed month is named on its screens: "November 2026 is closed (return reference …)". */
export const BooksClosed = z.object({
  month: z.string(),
  return_reference: z.string(),
  closed_at: z.string(),
});
export type BooksClosed = z.infer<typeof BooksClosed>;

export const BooksPeriod = z.object({
  month: z.string(),
  state: z.enum(BOOKS_PERIOD_STATES),
  return_reference: z.string(),
  asked_by: z.string(),
  asked_at: z.string(),
  closed_by: z.string().nullable(),
  confirmed_by: z.string().nullable(),
  closed_at: z.string().nullable(),
});
export type BooksPeriod = z.infer<typeof BooksPeriod>;

export const CloseBooksForm = z.object({
  return_reference: z
    .string({ message: booksTexts.referenceRequired })
    .trim()
    .min(1, booksTexts.referenceRequired)
    .max(60, 'A return reference is at most 60 characters'),
});
export type CloseBooksForm = z.infer<typeof CloseBooksForm>;
export const ConfirmBooksForm = ApprovalCodeForm;

const answer = z.object({ info: z.string(), period: BooksPeriod });

export const listBooksPeriods = endpoint({
  method: 'GET',
  path: '/api/books/periods',
  tag: 'tax',
  summary: 'The months an admin has asked to close: open, closing (awaiting confirmation) or closed, who and when, and the reference',
  access: 'manage:tax',
  response: z.object({ periods: z.array(BooksPeriod) }),
});

export const closeBooksPeriod = endpoint({
  method: 'POST',
  path: '/api/books/periods/:month/close',
  tag: 'tax',
  summary: "Asks to close an ended month after filing, with the return's reference; a second admin confirms",
  access: 'manage:tax',
  body: CloseBooksForm,
  response: answer,
});

export const confirmBooksPeriod = endpoint({
  method: 'POST',
  path: '/api/books/periods/:month/confirm',
  tag: 'tax',
  summary: "Confirms a month's close or reopening with the confirming admin's TOTP code (never the admin who asked)",
  access: 'manage:tax',
  body: ConfirmBooksForm,
  response: answer,
});

export const reopenBooksPeriod = endpoint({
  method: 'POST',
  path: '/api/books/periods/:month/reopen',
  tag: 'tax',
  summary: 'Asks to reopen a closed month; a second admin confirms',
  access: 'manage:tax',
  response: answer,
});
