import { randomBytes } from 'node:crypto';
import {
  COVER_IMAGE_MAX_BYTES,
  hasUnsafeText,
  textSafetyTexts,
  type ImageType,
  type Post,
  type PostBet,
  type PostCategory,
  type PostRow,
  type BetCategory,
  refusalTexts,
} from '@betdesk/contract';
import type { z } from 'zod';
import type { PostForm as PostFormSchema, SortOf, Ticket } from '@betdesk/contract';
import type { Queryable } from '../../db/client.ts';
import type { ListRequest } from '../../db/list.ts';
import type { AppDeps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { invalid, notFound, type FieldErrors } from '../../http/errors.ts';
import { audit, byStaff } from '../audit/service.ts';
import { ticketsOfDay } from '../tips-record/service.ts';
import { containsScript, hasVisibleContent, sanitizeTipHtml } from './html.ts';
import * as q from './queries.ts';

export { containsScript, hasVisibleContent, sanitizeTipHtml };

type ParsedPostForm = z.output<typeof PostFormSchema>;

export interface PostFormChoices {
  post_categories: PostCategory[];
  image_types: ImageType[];
  bet_categories: BetCategory[];
}

export async function postFormChoices(db: Queryable): Promise<PostFormChoices> {
  const [postCategories, imageTypes, betCategories] = [
    await q.listPostCategories(db),
    await q.listImageTypes(db),
    await q.listBetCategories(db),
  ];
  return { post_categories: postCategories, image_types: imageTypes, bet_categories: betCategories };
}

/** The bet categories, for the other tips screens (SMS tips, subscribers). */
export function betCategoryList(db: Queryable): Promise<BetCategory[]> {
  return q.listBetCategories(db);
}

const SCRIPT_REFUSED = 'The content may not contain scripts';
const CONTENT_REQUIRED = 'The content is required';

/**
 * Checks what only the database knows (categories, cover, bets exist) and cleans the HTML. A script
 * tag is refused outright; anything else outside the allow-list is removed.
 */
async function checkedPostValues(db: Queryable, form: ParsedPostForm): Promise<q.PostValues> {
  const errors: FieldErrors = {};
  if (!(await q.postCategoryExists(db, form.post_category_id))) {
    errors.post_category_id = ['Choose one of the post categories'];
  }
  if (form.image_type_id !== null && !(await q.imageTypeExists(db, form.image_type_id))) {
    errors.image_type_id = ['Choose one of the cover images'];
  }
  const unknownBets = await q.unknownBetCategories(db, form.selected_bets);
  if (unknownBets.length > 0) {
    errors.selected_bets = [`Unknown bet categories: ${unknownBets.join(', ')}`];
  }
  const content = sanitizeTipHtml(form.content);
  if (containsScript(form.content)) errors.content = [SCRIPT_REFUSED];
  else if (!hasVisibleContent(content)) errors.content = [CONTENT_REQUIRED];
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return {
    title: form.title,
    postCategoryId: form.post_category_id,
    imageTypeId: form.image_type_id,
    matchDate: form.match_date,
    content,
    attachTicket: form.attach_ticket,
  };
}

export async function writePost(
  deps: AppDeps,
  actor: Actor,
  form: ParsedPostForm,
  requestId: string,
): Promise<{ post: { id: number } }> {
  const id = await deps.db.transaction(async (tx) => {
    const values = await checkedPostValues(tx, form);
    const postId = await q.insertPost(tx, values, actor.userId);
    await q.replacePostBets(tx, postId, form.selected_bets);
    await audit(tx, 'tips-post.create', postId, byStaff(actor, requestId), { after: { ...values, selected_bets: form.selected_bets } });
    return postId;
  });
  return { post: { id } };
}

export async function editPost(
  deps: AppDeps,
  actor: Actor,
  form: ParsedPostForm & { post_id: number },
  requestId: string,
): Promise<{ post: { id: number } }> {
  await deps.db.transaction(async (tx) => {
    const before = await q.findPost(tx, form.post_id);
    if (!before) throw notFound(refusalTexts.postNotFound);
    const values = await checkedPostValues(tx, form);
    await q.updatePostRow(tx, form.post_id, values, actor.userId);
    await q.replacePostBets(tx, form.post_id, form.selected_bets);
    await audit(tx, 'tips-post.update', form.post_id, byStaff(actor, requestId), { before, after: { ...values, selected_bets: form.selected_bets } });
  });
  return { post: { id: form.post_id } };
}

export async function trashPost(deps: AppDeps, actor: Actor, postId: number, requestId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const before = await q.findPost(tx, postId);
    if (!before || !(await q.trashPostRow(tx, postId, actor.userId))) {
      throw notFound(refusalTexts.postAlreadyTrashed);
    }
    await audit(tx, 'tips-post.delete', postId, byStaff(actor, requestId), { before });
  });
}

export async function postById(db: Queryable, id: number): Promise<Post> {
  const post = await q.findPost(db, id);
  if (!post) throw notFound(refusalTexts.postNotFound);
  return post;
}

/** A post as it is viewed: with the tickets of its bets for its match date when it attaches them. */
export async function postWithTickets(db: Queryable, id: number): Promise<{ post: Post; tickets: Ticket[] }> {
  const post = await postById(db, id);
  const tickets = post.attach_ticket
    ? await ticketsOfDay(
        db,
        post.post_bets.map((b) => b.id),
        post.match_date,
      )
    : [];
  return { post, tickets };
}

export async function postForEditing(
  db: Queryable,
  id: number,
): Promise<PostFormChoices & { post: Post; post_bets: PostBet[] }> {
  const post = await postById(db, id);
  return { ...(await postFormChoices(db)), post, post_bets: post.post_bets };
}

export async function postsPage(
  db: Queryable,
  page: ListRequest<SortOf<'posts'>>,
): Promise<{ posts: PostRow[]; total_records: number }> {
  const { posts, total } = await q.pagePosts(db, page);
  return { posts, total_records: total };
}

/** What a file's first bytes say it is; the client's declared type is not trusted. */
export function sniffImageType(data: Buffer): string | null {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 6 && /^GIF8[79]a$/.test(data.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (data.length >= 12 && data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'image/webp';
  }
  return null;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

export interface CoverUpload {
  title: string;
  data: Buffer;
  truncated: boolean;
}

/** Stores an uploaded cover picture as a new image type, after checking its size and real format. */
export async function uploadCoverImage(
  deps: AppDeps,
  actor: Actor,
  upload: CoverUpload,
  requestId: string,
): Promise<ImageType> {
  const errors: FieldErrors = {};
  const title = upload.title.trim();
  if (title === '') errors.title = ['The title is required'];
  else if (title.length > 100) errors.title = ['The title may not be longer than 100 characters'];
  // A multipart form is read here, not by the contract's schemas: the same refusal, by hand.
  else if (hasUnsafeText(title)) errors.title = [textSafetyTexts.unsafeText];
  const contentType = sniffImageType(upload.data);
  if (upload.truncated || upload.data.length > COVER_IMAGE_MAX_BYTES) {
    errors.image = [`The picture may not be larger than ${COVER_IMAGE_MAX_BYTES / 1024 / 1024} MB`];
  } else if (upload.data.length === 0) {
    errors.image = ['Choose a picture to upload'];
  } else if (!contentType) {
    errors.image = ['The picture must be a PNG, JPEG, WebP or GIF file'];
  }
  if (Object.keys(errors).length > 0 || !contentType) throw invalid(errors);
  const imageName = `cover-${randomBytes(8).toString('hex')}.${EXTENSIONS[contentType]}`;
  return deps.db.transaction(async (tx) => {
    const image = await q.insertImageType(tx, {
      title,
      imageName,
      contentType,
      data: upload.data,
      uploadedBy: actor.userId,
    });
    await audit(tx, 'image-type.upload', image.id, byStaff(actor, requestId), {
      after: { title, image_name: imageName, content_type: contentType, byte_size: upload.data.length },
    });
    return image;
  });
}

export function coverImage(db: Queryable, imageName: string): Promise<q.StoredImage | null> {
  return q.findImageByName(db, imageName);
}

/** For the demo seed: a bundled picture becomes an image type. */
export function addBundledImageType(
  db: Queryable,
  image: { title: string; imageName: string; contentType: string; data: Buffer },
): Promise<ImageType> {
  return q.insertImageType(db, { ...image, uploadedBy: null });
}
