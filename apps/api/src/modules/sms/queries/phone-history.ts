import { desc, eq } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../../db/client.ts';
import { users } from '../../../db/schema/index.ts';

/** A table of a phone's changes (consent, opt-outs): each row's id, phone, staff member and time. */
export interface PhoneEvents<At extends PgColumn> {
  table: PgTable;
  id: PgColumn;
  phone: PgColumn;
  by: PgColumn;
  at: At;
}

/** A phone's changes, newest first: what each changed, the staff member who made it (`by`) and when (`at`). */
export function phoneHistory<At extends PgColumn, Fields extends SelectedFields>(
  db: Queryable,
  events: PhoneEvents<At>,
  phone: string,
  fields: Fields,
) {
  return db
    .select({ ...fields, by: users.name, at: events.at })
    .from(events.table)
    .leftJoin(users, eq(users.id, events.by))
    .where(eq(events.phone, phone))
    .orderBy(desc(events.id));
}
