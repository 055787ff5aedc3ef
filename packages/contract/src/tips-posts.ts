import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { Ticket } from './tips-record.ts';
import { ChoiceId, Id, Notice } from './common.ts';
import { ListCounts, listQuery } from './lists.ts';

/** A kind of tip sold, e.g. "Daily 2 Odds" with code D2 (spec 3, Bet category). */
export const BetCategory = z.object({ id: z.number(), name: z.string(), code: z.string() });
export type BetCategory = z.infer<typeof BetCategory>;

export const PostCategory = z.object({ id: z.number(), name: z.string() });
export type PostCategory = z.infer<typeof PostCategory>;

/** A cover picture a post may show (spec 3, Image type). */
export const ImageType = z.object({ id: z.number(), title: z.string() });
export type ImageType = z.infer<typeof ImageType>;

/** How the web shows a bet category: name plus code. */
export function betCategoryLabel(category: { name: string; code: string }): string {
  return `${category.name} (${category.code})`;
}

/** Where the API serves a cover picture by its file name (public: covers are shown to buyers). */
export function coverImageUrl(imageName: string): string {
  return `/api/tips/images/${encodeURIComponent(imageName)}`;
}

export const POST_TITLE_MAX = 200;
export const POST_CONTENT_MAX = 200_000;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date typed as YYYY-MM-DD (a time part, as some pickers send, is ignored). */
export const MatchDate = z
  .string({ message: 'The match date is required' })
  .trim()
  .min(1, 'The match date is required')
  .transform((value, ctx) => {
    const day = value.slice(0, 10);
    const parsed = new Date(`${day}T00:00:00Z`);
    if (!isoDate.test(day) || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) {
      ctx.addIssue({ code: 'custom', message: 'The match date must be a date like 2025-03-31' });
      return z.NEVER;
    }
    return day;
  });

/** The post form of spec 3/5: title, post_category_id, image_type_id, match_date, selected_bets, content. */
export const PostForm = z.object({
  title: z
    .string({ message: 'The title is required' })
    .trim()
    .min(1, 'The title is required')
    .max(POST_TITLE_MAX, `The title may not be longer than ${POST_TITLE_MAX} characters`),
  post_category_id: ChoiceId('Choose a category').describe('post category id'),
  /** Optional: a post without a cover shows the default image. */
  image_type_id: z
    .union([z.literal(''), z.null(), ChoiceId('Choose a cover image, or none for the default')])
    .optional()
    .transform((v) => (v === '' || v === undefined ? null : v)),
  match_date: MatchDate,
  selected_bets: z
    .array(ChoiceId('Choose the bets this tip is shown in'), { message: 'Choose the bets this tip is shown in' })
    .min(1, 'Choose at least one bet this tip is shown in')
    .max(100),
  content: z
    .string({ message: 'The content is required' })
    .min(1, 'The content is required')
    .max(POST_CONTENT_MAX, 'The content is too long'),
  /** Show the ticket of each chosen bet for the match date in the post. */
  attach_ticket: z.boolean({ message: 'Attach the ticket: yes or no' }).optional().default(false),
});
export type PostForm = z.input<typeof PostForm>;

export const PostBet = BetCategory;
export type PostBet = BetCategory;

/** A web tip post as the view reads it (spec 3, Web tip post). */
export const Post = z.object({
  id: z.number(),
  title: z.string(),
  post_category_id: z.number(),
  post_category: z.string(),
  image_type_id: z.number().nullable(),
  image_title: z.string().nullable(),
  image_name: z.string().nullable(),
  match_date: z.string(),
  content: z.string(),
  attach_ticket: z.boolean(),
  post_bets: z.array(PostBet),
  /** The bets it is viewed in, as one text ("Daily 2 Odds (D2), Over 1.5 (O15)"). */
  bets: z.string(),
});
export type Post = z.infer<typeof Post>;

/** A row of the Web Tips table: the post without its HTML. */
export const PostRow = Post.omit({ content: true });
export type PostRow = z.infer<typeof PostRow>;

const PostFormChoices = z.object({
  post_categories: z.array(PostCategory),
  image_types: z.array(ImageType),
  bet_categories: z.array(BetCategory),
});

export const newPostForm = endpoint({
  method: 'GET',
  path: '/api/tips/posts/add',
  tag: 'tips-posts',
  summary: 'The choices of the new-post form: post categories, cover images and bet categories',
  access: 'manage:tips-content',
  response: PostFormChoices,
});

export const addPost = endpoint({
  method: 'POST',
  path: '/api/tips/posts/add',
  tag: 'tips-posts',
  summary: 'Write a web tip post; its HTML is sanitized (allow-list) before it is stored',
  access: 'manage:tips-content',
  body: PostForm,
  response: z.object({ post: z.object({ id: z.number() }) }),
});

export const viewPost = endpoint({
  method: 'GET',
  path: '/api/tips/posts/view',
  tag: 'tips-posts',
  summary: 'One web tip post, with the tickets of its bets for its match date when it attaches them',
  access: 'manage:tips-content',
  query: z.object({ id: Id }),
  response: z.object({ post: Post, tickets: z.array(Ticket) }),
});

export const editPost = endpoint({
  method: 'GET',
  path: '/api/tips/posts/edit',
  tag: 'tips-posts',
  summary: 'A post with the choices of its edit form',
  access: 'manage:tips-content',
  query: z.object({ post_id: Id }),
  response: PostFormChoices.extend({ post: Post, post_bets: z.array(PostBet) }),
});

export const updatePost = endpoint({
  method: 'POST',
  path: '/api/tips/posts/update',
  tag: 'tips-posts',
  summary: 'Save an edited web tip post',
  access: 'manage:tips-content',
  body: PostForm.extend({ post_id: Id }),
  response: z.object({ post: z.object({ id: z.number() }) }),
});

export const deletePost = endpoint({
  method: 'POST',
  path: '/api/tips/posts/delete',
  tag: 'tips-posts',
  summary: 'Trash a web tip post',
  access: 'manage:tips-content',
  body: z.object({ post_id: Id }),
  response: Notice,
});

export const allPosts = endpoint({
  method: 'GET',
  path: '/api/tips/posts/all',
  tag: 'tips-posts',
  summary: 'Web tip posts, newest match date first, remote-paged, searchable by title',
  access: 'manage:tips-content',
  query: listQuery('posts'),
  response: ListCounts.extend({ posts: z.array(PostRow) }),
});

/** Cover pictures an admin may upload: raster formats only (an SVG could carry script). */
export const COVER_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export const COVER_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Upload a new cover picture (not shown in the spec; see docs/decisions): multipart form data with
 * a `title` field and an `image` file. It becomes an image type the post form offers.
 */
export const uploadCoverImage = endpoint({
  method: 'POST',
  path: '/api/tips/images/upload',
  tag: 'tips-posts',
  summary: 'Upload a cover picture (multipart: title, image; PNG, JPEG, WebP or GIF up to 2 MB)',
  access: 'upload:images',
  response: Notice.extend({ image_type: ImageType }),
});
