import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { ImageType, PostCategory, PostRow, Post, BetCategory, SortOf } from '@betdesk/contract';
import { betCategoryLabel } from '@betdesk/contract';
import { rows } from '../../db/rows.ts';
import { betCategories, imageTypes, postCategories, tipsPostBets, tipsPosts } from '../../db/schema/index.ts';
import type { Queryable } from '../../db/client.ts';
import { containing, exactCount, limitSql, orderSql, pageOf, type ListRequest } from '../../db/list.ts';

export async function listPostCategories(db: Queryable): Promise<PostCategory[]> {
  return db.select({ id: postCategories.id, name: postCategories.name }).from(postCategories).orderBy(asc(postCategories.name));
}

export async function listImageTypes(db: Queryable): Promise<ImageType[]> {
  return db.select({ id: imageTypes.id, title: imageTypes.title }).from(imageTypes).orderBy(asc(imageTypes.title), asc(imageTypes.id));
}

export async function listBetCategories(db: Queryable): Promise<BetCategory[]> {
  return db
    .select({ id: betCategories.id, name: betCategories.name, code: betCategories.code })
    .from(betCategories)
    .orderBy(asc(betCategories.id));
}

export async function postCategoryExists(db: Queryable, id: number): Promise<boolean> {
  const found = await db.select({ id: postCategories.id }).from(postCategories).where(eq(postCategories.id, id));
  return found.length > 0;
}

export async function imageTypeExists(db: Queryable, id: number): Promise<boolean> {
  const found = await db.select({ id: imageTypes.id }).from(imageTypes).where(eq(imageTypes.id, id));
  return found.length > 0;
}

/** The ids among `ids` that name no bet category. */
export async function unknownBetCategories(db: Queryable, ids: number[]): Promise<number[]> {
  const found = await db.select({ id: betCategories.id }).from(betCategories).where(inArray(betCategories.id, ids));
  const known = new Set(found.map((f) => f.id));
  return ids.filter((id) => !known.has(id));
}

export interface PostValues {
  title: string;
  postCategoryId: number;
  imageTypeId: number | null;
  matchDate: string;
  content: string;
  attachTicket: boolean;
}

export async function insertPost(db: Queryable, values: PostValues, userId: number): Promise<number> {
  const [row] = await db
    .insert(tipsPosts)
    .values({ ...values, createdBy: userId, updatedBy: userId })
    .returning({ id: tipsPosts.id });
  return row!.id;
}

export async function updatePostRow(db: Queryable, id: number, values: PostValues, userId: number): Promise<void> {
  await db
    .update(tipsPosts)
    .set({ ...values, updatedBy: userId, updatedAt: sql`now()` })
    .where(and(eq(tipsPosts.id, id), isNull(tipsPosts.deletedAt)));
}

export async function replacePostBets(db: Queryable, postId: number, betCategoryIds: number[]): Promise<void> {
  await db.delete(tipsPostBets).where(eq(tipsPostBets.postId, postId));
  await db
    .insert(tipsPostBets)
    .values([...new Set(betCategoryIds)].map((betCategoryId) => ({ postId, betCategoryId })));
}

export async function trashPostRow(db: Queryable, id: number, userId: number): Promise<boolean> {
  const trashed = await db
    .update(tipsPosts)
    .set({ deletedAt: sql`now()`, updatedBy: userId, updatedAt: sql`now()` })
    .where(and(eq(tipsPosts.id, id), isNull(tipsPosts.deletedAt)))
    .returning({ id: tipsPosts.id });
  return trashed.length > 0;
}

interface PostRecord {
  id: number;
  title: string;
  post_category_id: number;
  post_category: string;
  image_type_id: number | null;
  image_title: string | null;
  image_name: string | null;
  match_date: string;
  content?: string;
  attach_ticket: boolean;
  post_bets: BetCategory[] | null;
  total_records?: number;
}

function toPostRow(r: PostRecord): PostRow {
  const bets = r.post_bets ?? [];
  return {
    id: r.id,
    title: r.title,
    post_category_id: r.post_category_id,
    post_category: r.post_category,
    image_type_id: r.image_type_id,
    image_title: r.image_title,
    image_name: r.image_name,
    match_date: r.match_date,
    attach_ticket: r.attach_ticket,
    post_bets: bets,
    bets: bets.map(betCategoryLabel).join(', '),
  };
}

/** Post, category, cover and bets in one statement (the bets aggregated per post). */
const postSelect = (withContent: boolean) => sql`
  select p.id, p.title, p.post_category_id, pc.name as post_category,
         p.image_type_id, it.title as image_title, it.image_name,
         p.match_date::text as match_date, p.attach_ticket,
         ${withContent ? sql`p.content,` : sql``}
         (select json_agg(json_build_object('id', bc.id, 'name', bc.name, 'code', bc.code) order by bc.id)
            from ${tipsPostBets} pb join ${betCategories} bc on bc.id = pb.bet_category_id
           where pb.post_id = p.id) as post_bets`;

export async function findPost(db: Queryable, id: number): Promise<Post | null> {
  const [row] = await rows<PostRecord>(
    db,
    sql`${postSelect(true)}
          from ${tipsPosts} p
          join ${postCategories} pc on pc.id = p.post_category_id
          left join ${imageTypes} it on it.id = p.image_type_id
         where p.id = ${id} and p.deleted_at is null`,
  );
  return row ? { ...toPostRow(row), content: row.content ?? '' } : null;
}

/**
 * One page of live posts, newest match date first (tips_posts_live_match_date_idx), searched by
 * title. Posts number in the thousands at most, so they are counted exactly.
 */
export async function pagePosts(
  db: Queryable,
  query: ListRequest<SortOf<'posts'>>,
): Promise<{ posts: PostRow[]; total: number }> {
  const search = query.search?.trim();
  const where = sql`p.deleted_at is null and ${search ? sql`p.title ilike ${containing(search)}` : sql`true`}`;
  const order = orderSql('posts', { match_date: sql`p.match_date` }, sql`p.id`, query);
  const [found, total] = await Promise.all([
    rows<PostRecord>(
      db,
      sql`${postSelect(false)}
            from ${tipsPosts} p
            join ${postCategories} pc on pc.id = p.post_category_id
            left join ${imageTypes} it on it.id = p.image_type_id
           where ${where}
           order by ${order} ${limitSql(pageOf(query))}`,
    ),
    exactCount(db, sql`from ${tipsPosts} p where ${where}`),
  ]);
  return { posts: found.map(toPostRow), total };
}

export interface StoredImage {
  contentType: string;
  data: Buffer;
}

export async function findImageByName(db: Queryable, imageName: string): Promise<StoredImage | null> {
  const [row] = await db
    .select({ contentType: imageTypes.contentType, data: imageTypes.data })
    .from(imageTypes)
    .where(eq(imageTypes.imageName, imageName));
  return row ?? null;
}

export async function insertImageType(
  db: Queryable,
  image: { title: string; imageName: string; contentType: string; data: Buffer; uploadedBy: number | null },
): Promise<ImageType> {
  const [row] = await db
    .insert(imageTypes)
    .values({ ...image, byteSize: image.data.length })
    .returning({ id: imageTypes.id, title: imageTypes.title });
  return row!;
}
