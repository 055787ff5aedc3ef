import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';
import { betCategories } from './tips-core.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** What a web tip post is about, e.g. "Football", "Jackpot". */
export const postCategories = pgTable('post_categories', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  /** Its posts are free tips: shown in full to anyone on the subscriber portal's public pages. */
  public: boolean('public').notNull().default(false),
});

/**
 * A cover picture a post may show ("image type" in the spec): seeded from bundled files or uploaded
 * by an admin. The bytes live in the database so every API process serves the same pictures.
 */
export const imageTypes = pgTable('image_types', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  /** The file name it is served under (/api/tips/images/<image_name>). */
  imageName: text('image_name').notNull().unique(),
  contentType: text('content_type').notNull(),
  data: bytea('data').notNull(),
  byteSize: integer('byte_size').notNull(),
  uploadedBy: integer('uploaded_by').references(() => users.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A web tip post. Trashed posts keep their row (deleted_at) for the audit trail. */
export const tipsPosts = pgTable(
  'tips_posts',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    postCategoryId: integer('post_category_id')
      .notNull()
      .references(() => postCategories.id),
    imageTypeId: integer('image_type_id').references(() => imageTypes.id),
    matchDate: date('match_date', { mode: 'string' }).notNull(),
    /** Sanitized HTML. */
    content: text('content').notNull(),
    /** Show the ticket of each of its bet categories for its match date (decision 020). */
    attachTicket: boolean('attach_ticket').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id),
    updatedBy: integer('updated_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('tips_posts_live_match_date_idx').on(t.matchDate, t.id).where(sql`${t.deletedAt} is null`)],
);

/** The bets (bet categories) a post is shown in. */
export const tipsPostBets = pgTable(
  'tips_post_bets',
  {
    postId: integer('post_id')
      .notNull()
      .references(() => tipsPosts.id, { onDelete: 'cascade' }),
    betCategoryId: integer('bet_category_id')
      .notNull()
      .references(() => betCategories.id),
  },
  (t) => [primaryKey({ columns: [t.postId, t.betCategoryId] })],
);

/**
 * Every text an SMS tip of a category has had; the newest is the current tip. A save with the same
 * text adds no version, so the fan-out (deduplicated per version and phone) sends nothing twice.
 */
export const smsTipVersions = pgTable(
  'sms_tip_versions',
  {
    id: serial('id').primaryKey(),
    betCategoryId: integer('bet_category_id')
      .notNull()
      .references(() => betCategories.id),
    content: text('content').notNull(),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sms_tip_versions_category_idx').on(t.betCategoryId, t.id)],
);

/** The one Winnings & Results page (a single row, id 1). */
export const winningsContent = pgTable(
  'winnings_content',
  {
    id: integer('id').primaryKey().default(1),
    content: text('content').notNull(),
    updatedBy: integer('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('winnings_content_single_row', sql`${t.id} = 1`)],
);
