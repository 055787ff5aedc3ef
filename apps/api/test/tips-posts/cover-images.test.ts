import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.ts';
import { signedInStaff } from '../tips-fixtures/reference.ts';

let t: TestApp;
let admin: string;
let staff: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, staff } = await signedInStaff(t));
});
afterAll(() => t.close());

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]);

function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[]) {
  const boundary = '----betdesk-test-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n`));
    if (part.type) chunks.push(Buffer.from(`Content-Type: ${part.type}\r\n`));
    chunks.push(Buffer.from('\r\n'), Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (token: string | null, parts: Parameters<typeof multipart>[0]) =>
  t.as(token, { method: 'POST', url: '/api/tips/images/upload', ...multipart(parts) });

describe('cover image upload', () => {
  it('lets an admin upload a PNG that the post form then offers and the API serves', async () => {
    const res = await upload(admin, [
      { name: 'title', value: 'Derby night' },
      { name: 'image', value: PNG, filename: 'derby.png', type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(200);
    const imageType = res.json().image_type;
    expect(imageType).toMatchObject({ title: 'Derby night' });
    const form = await t.as(staff, { method: 'GET', url: '/api/tips/posts/add' });
    expect(form.json().image_types).toContainEqual(imageType);
  });

  it('serves an uploaded picture with its sniffed type, without a session', async () => {
    const res = await upload(admin, [
      { name: 'title', value: 'Served' },
      { name: 'image', value: PNG, filename: 'served.bin', type: 'application/octet-stream' },
    ]);
    expect(res.json().image_type.title).toBe('Served');
    const names = await t.deps.database.executeSql(`select image_name from image_types where id = $1`, [
      res.json().image_type.id,
    ]);
    const name = String(names.rows[0]!.image_name);
    expect(name).toMatch(/^cover-[0-9a-f]{16}\.png$/);
    const image = await t.as(null, { method: 'GET', url: `/api/tips/images/${name}` });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    expect((await t.as(null, { method: 'GET', url: '/api/tips/images/nothing.png' })).statusCode).toBe(404);
  });

  it('refuses a file that is not a picture, whatever its declared type', async () => {
    const res = await upload(admin, [
      { name: 'title', value: 'Sneaky' },
      { name: 'image', value: '<svg onload="alert(1)"></svg>', filename: 'x.png', type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ image: ['The picture must be a PNG, JPEG, WebP or GIF file'] });
  });

  it('refuses a picture over 2 MB and a missing title', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024, 0)]);
    const res = await upload(admin, [{ name: 'image', value: big, filename: 'big.png', type: 'image/png' }]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      title: ['The title is required'],
      image: ['The picture may not be larger than 2 MB'],
    });
  });

  it('refuses a JSON body', async () => {
    const res = await t.as(admin, { method: 'POST', url: '/api/tips/images/upload', payload: { title: 'x' } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['image']);
  });

  it('is for admins only', async () => {
    const parts = [
      { name: 'title', value: 'Staff try' },
      { name: 'image', value: PNG, filename: 'a.png', type: 'image/png' },
    ];
    expect((await upload(staff, parts)).statusCode).toBe(403);
    expect((await upload(null, parts)).statusCode).toBe(401);
  });
});
