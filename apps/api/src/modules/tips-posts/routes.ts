import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import {
  addPost,
  allPosts,
  COVER_IMAGE_MAX_BYTES,
  deletePost,
  editPost,
  newPostForm,
  updatePost,
  uploadCoverImage,
  viewPost,
  refusalTexts,
} from '@betdesk/contract';
import type { AppDeps } from '../../deps.ts';
import { fieldError, notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import * as posts from './service.ts';

/** Reads the upload form: a `title` field and one `image` file (bounded by the size limit). */
async function readCoverUpload(request: FastifyRequest): Promise<posts.CoverUpload> {
  if (!request.isMultipart()) {
    throw fieldError('image', refusalTexts.imageUploadForm);
  }
  const upload: posts.CoverUpload = { title: '', data: Buffer.alloc(0), truncated: false };
  for await (const part of request.parts()) {
    if (part.type === 'field' && part.fieldname === 'title') {
      upload.title = String(part.value ?? '');
    } else if (part.type === 'file' && part.fieldname === 'image') {
      upload.data = await part.toBuffer();
      upload.truncated = part.file.truncated;
    } else if (part.type === 'file') {
      part.file.resume();
    }
  }
  return upload;
}

export function tipsPostsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(app, newPostForm, () => posts.postFormChoices(deps.db));
  route(app, addPost, ({ actor, body, request }) => posts.writePost(deps, actor, body, request.id));
  route(app, viewPost, ({ query }) => posts.postWithTickets(deps.db, query.id));
  route(app, editPost, ({ query }) => posts.postForEditing(deps.db, query.post_id));
  route(app, updatePost, ({ actor, body, request }) => posts.editPost(deps, actor, body, request.id));
  route(app, deletePost, async ({ actor, body, request }) => {
    await posts.trashPost(deps, actor, body.post_id, request.id);
    return { message: 'Post trashed' };
  });
  route(app, allPosts, ({ query }) => posts.postsPage(deps.db, query));

  // Multipart is parsed only for the upload, inside its own plugin scope.
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: COVER_IMAGE_MAX_BYTES, files: 1, fields: 4, parts: 6, fieldSize: 1024 },
      throwFileSizeLimit: false,
    });
    route(scope, uploadCoverImage, async ({ actor, request }) => {
      const image = await posts.uploadCoverImage(deps, actor, await readCoverUpload(request), request.id);
      return { message: 'Cover image uploaded', image_type: image };
    });
  });

  // Cover pictures are public (they illustrate tips sold on the web), so <img> needs no token.
  app.get<{ Params: { imageName: string } }>(
    '/api/tips/images/:imageName',
    { schema: { hide: true } },
    async (request, reply) => {
      const image = await posts.coverImage(deps.db, request.params.imageName);
      if (!image) throw notFound(refusalTexts.imageNotFound);
      return reply
        .header('content-type', image.contentType)
        .header('cache-control', 'public, max-age=86400')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('x-content-type-options', 'nosniff')
        .send(image.data);
    },
  );
}
