import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { auditLog } from '../../src/db/schema/index.ts';
import { type TestApp } from '../helpers.ts';
import { tipsApp, type TipsReference } from '../tips-fixtures/reference.ts';

let t: TestApp, ref: TipsReference, admin: string, staff: string;

beforeAll(async () => {
  ({ t, ref, admin, staff } = await tipsApp());
});
afterAll(() => t.close());

const validPost = () => ({
  title: 'Arsenal v Chelsea: both teams to score',
  post_category_id: ref.football,
  image_type_id: ref.cover,
  match_date: '2025-03-30',
  selected_bets: [ref.d2, ref.o15],
  content: '<p>Both teams have scored in <strong>5 of the last 6</strong>.</p>',
});

async function writePost(token: string, overrides: Record<string, unknown> = {}) {
  return t.as(token, { method: 'POST', url: '/api/tips/posts/add', payload: { ...validPost(), ...overrides } });
}

describe('web tip posts', () => {
  it('offers post categories, cover images and bet categories to the new-post form', async () => {
    const res = await t.as(staff, { method: 'GET', url: '/api/tips/posts/add' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['bet_categories', 'image_types', 'post_categories']);
    expect(res.json().bet_categories).toEqual([
      { id: ref.d2, name: 'Daily 2 Odds', code: 'D2' },
      { id: ref.o15, name: 'Over 1.5 Goals', code: 'O15' },
    ]);
    expect(res.json().image_types).toEqual([{ id: ref.cover, title: 'Stadium' }]);
  });

  it('lets staff write a post and view it with its category, cover and bets', async () => {
    const saved = await writePost(staff);
    expect(saved.statusCode).toBe(200);
    const id = saved.json().post.id as number;
    const view = await t.as(staff, { method: 'GET', url: `/api/tips/posts/view?id=${id}` });
    expect(view.statusCode).toBe(200);
    expect(view.json().post).toEqual({
      id,
      title: 'Arsenal v Chelsea: both teams to score',
      post_category_id: ref.football,
      post_category: 'Football',
      image_type_id: ref.cover,
      image_title: 'Stadium',
      image_name: 'stadium.png',
      match_date: '2025-03-30',
      content: '<p>Both teams have scored in <strong>5 of the last 6</strong>.</p>',
      attach_ticket: false,
      post_bets: [
        { id: ref.d2, name: 'Daily 2 Odds', code: 'D2' },
        { id: ref.o15, name: 'Over 1.5 Goals', code: 'O15' },
      ],
      bets: 'Daily 2 Odds (D2), Over 1.5 Goals (O15)',
    });
    expect(view.json().tickets).toEqual([]);
  });

  it('keeps a table from the editor', async () => {
    const table =
      '<table style="min-width: 50px"><colgroup><col><col></colgroup><tbody><tr><th colspan="1" rowspan="1"><p>Match</p></th><th colspan="1" rowspan="1"><p>Tip</p></th></tr><tr><td colspan="1" rowspan="1"><p>AFC v Gor</p></td><td colspan="1" rowspan="1"><p>GG</p></td></tr></tbody></table>';
    const saved = await writePost(admin, { content: table });
    const view = await t.as(admin, { method: 'GET', url: `/api/tips/posts/view?id=${saved.json().post.id}` });
    expect(view.json().post.content).toBe(
      '<table><colgroup><col /><col /></colgroup><tbody><tr><th colspan="1" rowspan="1"><p>Match</p></th><th colspan="1" rowspan="1"><p>Tip</p></th></tr><tr><td colspan="1" rowspan="1"><p>AFC v Gor</p></td><td colspan="1" rowspan="1"><p>GG</p></td></tr></tbody></table>',
    );
  });

  it('refuses a script tag in the content, naming the field', async () => {
    const res = await writePost(staff, { content: '<p>Tip</p><script>alert(1)</script>' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ content: ['The content may not contain scripts'] });
  });

  it('strips event handlers, javascript: links, iframes and styles before storing the HTML', async () => {
    const saved = await writePost(staff, {
      content:
        '<p onclick="steal()" style="color:red">Safe <img src=x onerror="steal()"><a href="javascript:steal()">link</a> <a href="https://example.com">site</a></p><iframe src="https://evil.example"></iframe>',
    });
    expect(saved.statusCode).toBe(200);
    const view = await t.as(staff, { method: 'GET', url: `/api/tips/posts/view?id=${saved.json().post.id}` });
    const html = view.json().post.content as string;
    expect(html).toBe(
      '<p>Safe <a rel="noopener noreferrer nofollow" target="_blank">link</a> <a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">site</a></p>',
    );
    expect(html).not.toMatch(/onclick|onerror|javascript:|iframe|style=/i);
  });

  it('requires a match date', async () => {
    const { match_date: _omitted, ...withoutDate } = validPost();
    const res = await t.as(staff, { method: 'POST', url: '/api/tips/posts/add', payload: withoutDate });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.match_date).toEqual(['The match date is required']);
    const badDate = await writePost(staff, { match_date: '2025-02-30' });
    expect(badDate.statusCode).toBe(422);
    expect(Object.keys(badDate.json().errors)).toEqual(['match_date']);
  });

  it('refuses an unknown category, cover or bet, and an empty list of bets', async () => {
    const unknown = await writePost(staff, { post_category_id: 9999, image_type_id: 9999, selected_bets: [ref.d2, 9999] });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors).sort()).toEqual(['image_type_id', 'post_category_id', 'selected_bets']);
    const empty = await writePost(staff, { selected_bets: [] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.selected_bets).toEqual(['Choose at least one bet this tip is shown in']);
    const blank = await writePost(staff, { title: '  ', content: '<p> </p>' });
    expect(blank.statusCode).toBe(422);
    expect(Object.keys(blank.json().errors).sort()).toEqual(['title']);
    const noText = await writePost(staff, { content: '<p> </p>' });
    expect(noText.json().errors).toEqual({ content: ['The content is required'] });
  });

  it('accepts a post without a cover (the view shows the default image)', async () => {
    const saved = await writePost(staff, { image_type_id: null });
    expect(saved.statusCode).toBe(200);
    const view = await t.as(staff, { method: 'GET', url: `/api/tips/posts/view?id=${saved.json().post.id}` });
    expect(view.json().post).toMatchObject({ image_type_id: null, image_title: null, image_name: null });
  });

  it('prefills the edit form and saves an edit, audited', async () => {
    const id = (await writePost(staff)).json().post.id as number;
    const form = await t.as(staff, { method: 'GET', url: `/api/tips/posts/edit?post_id=${id}` });
    expect(form.statusCode).toBe(200);
    expect(Object.keys(form.json()).sort()).toEqual(['bet_categories', 'image_types', 'post', 'post_bets', 'post_categories']);
    expect(form.json().post_bets.map((b: { code: string }) => b.code)).toEqual(['D2', 'O15']);

    const saved = await t.as(staff, {
      method: 'POST',
      url: '/api/tips/posts/update',
      payload: { ...validPost(), post_id: id, title: 'Edited title', selected_bets: [ref.o15] },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ post: { id } });
    const view = await t.as(staff, { method: 'GET', url: `/api/tips/posts/view?id=${id}` });
    expect(view.json().post).toMatchObject({ title: 'Edited title', bets: 'Over 1.5 Goals (O15)' });
    const audits = await t.deps.db.select().from(auditLog).where(eq(auditLog.entityId, String(id)));
    expect(audits.map((a) => a.action)).toContain('tips-post.update');
  });

  it('trashes a post: it leaves the list and the view, and the trash is audited', async () => {
    const id = (await writePost(staff, { title: 'To be trashed' })).json().post.id as number;
    const trashed = await t.as(staff, { method: 'POST', url: '/api/tips/posts/delete', payload: { post_id: id } });
    expect(trashed.statusCode).toBe(200);
    expect((await t.as(staff, { method: 'GET', url: `/api/tips/posts/view?id=${id}` })).statusCode).toBe(404);
    const again = await t.as(staff, { method: 'POST', url: '/api/tips/posts/delete', payload: { post_id: id } });
    expect(again.statusCode).toBe(404);
    const list = await t.as(staff, { method: 'GET', url: '/api/tips/posts/all?perPage=2000' });
    expect(list.json().posts.map((p: { id: number }) => p.id)).not.toContain(id);
    const [row] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'tips-post.delete'));
    expect(row).toMatchObject({ entityId: String(id) });
  });

  it('pages the Web Tips table newest match date first, with the total', async () => {
    await writePost(staff, { title: 'Future', match_date: '2030-01-01' });
    const page = await t.as(staff, { method: 'GET', url: '/api/tips/posts/all?page=1&perPage=50' });
    expect(page.statusCode).toBe(200);
    expect(Object.keys(page.json()).sort()).toEqual(['posts', 'total_records']);
    const { posts, total_records } = page.json();
    expect(posts[0]).toMatchObject({ title: 'Future', match_date: '2030-01-01', post_category: 'Football' });
    expect(posts[0]).not.toHaveProperty('content');
    expect(total_records).toBe(posts.length);
    const beyond = await t.as(staff, { method: 'GET', url: '/api/tips/posts/all?page=9&perPage=50' });
    expect(beyond.json()).toEqual({ posts: [], total_records });
    const badSize = await t.as(staff, { method: 'GET', url: '/api/tips/posts/all?perPage=7' });
    expect(badSize.statusCode).toBe(422);
  });

  it('answers 404 for an unknown post and 401 without a session', async () => {
    const post = await writePost(staff);
    expect((await t.as(staff, { method: 'GET', url: '/api/tips/posts/view?id=987654' })).statusCode).toBe(404);
    expect((await t.as(staff, { method: 'GET', url: '/api/tips/posts/edit?post_id=987654' })).statusCode).toBe(404);
    for (const [method, url] of [
      ['GET', '/api/tips/posts/add'],
      ['POST', '/api/tips/posts/add'],
      ['GET', `/api/tips/posts/view?id=${post.json().post.id}`],
      ['GET', `/api/tips/posts/edit?post_id=${post.json().post.id}`],
      ['POST', '/api/tips/posts/update'],
      ['POST', '/api/tips/posts/delete'],
      ['GET', '/api/tips/posts/all'],
    ] as const) {
      const payload = method === 'POST' ? { ...validPost(), post_id: post.json().post.id } : undefined;
      expect((await t.as(null, { method, url, payload })).statusCode).toBe(401);
    }
  });
});
