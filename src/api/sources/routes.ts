import { backgroundOf, defineRoute } from '../../lib/route'
import * as s from './schema'
import { embeddingProgress } from './reembed'
import { retryThreadSource } from './retry'
import * as service from './service'
import { uploadSource } from './upload'

const tag = 'Sources'

export const sourceRoutes = [
  defineRoute(
    {
      method: 'post',
      path: '/threads/:id/sources/file',
      tag,
      summary: 'Attach a file to a chat (multipart/form-data: file, name?, description?); it is processed in the background',
      access: 'user',
      params: s.threadParams,
      response: s.sourceResponse,
      status: 201,
      errors: ['THREAD_NOT_FOUND', 'EMBEDDING_MODEL_REQUIRED', 'TOO_MANY_SOURCES', 'FILE_TOO_LARGE', 'FILE_EMPTY', 'UPLOAD_INCOMPLETE', 'UNSUPPORTED_FILE_TYPE', 'UNSUPPORTED_MEDIA_TYPE', 'VALIDATION_FAILED'],
    },
    async ({ c, deps, user, params }) => c.json(await uploadSource(deps, user, params.id, c.req.raw, backgroundOf(c)), 201),
  ),
  defineRoute(
    { method: 'get', path: '/threads/:id/sources', tag, summary: "A chat's files with their processing status", access: 'user', params: s.threadParams, response: s.sourceListResponse, errors: ['THREAD_NOT_FOUND'] },
    ({ deps, user, params }) => service.listSources(deps, user, params.id),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/threads/:id/sources/:sourceId',
      tag,
      summary: "Change a file's name or description (the model is told both)",
      access: 'user',
      params: s.sourceParams,
      body: s.updateSourceBody,
      response: s.sourceResponse,
      errors: ['THREAD_NOT_FOUND', 'SOURCE_NOT_FOUND'],
    },
    ({ deps, user, params, body }) => service.updateSource(deps, user, params.id, params.sourceId, body),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/threads/:id/sources/:sourceId/retry',
      tag,
      summary: 'Process a failed file again (from the stored file; a file that is not failed is left as it is)',
      access: 'user',
      params: s.sourceParams,
      response: s.sourceResponse,
      errors: ['THREAD_NOT_FOUND', 'SOURCE_NOT_FOUND'],
    },
    ({ c, deps, user, params }) => retryThreadSource(deps, user, params.id, params.sourceId, backgroundOf(c)),
  ),
  defineRoute(
    { method: 'delete', path: '/threads/:id/sources/:sourceId', tag, summary: 'Remove a file from a chat', access: 'user', params: s.sourceParams, status: 204, errors: ['THREAD_NOT_FOUND', 'SOURCE_NOT_FOUND'] },
    async ({ deps, user, params }) => {
      await service.deleteSource(deps, user, params.id, params.sourceId)
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/sources/embedding',
      tag,
      summary: "How far the organisation's files are embedded with its embedding model (after a change of model they are embedded again in the background)",
      access: 'admin',
      response: s.embeddingProgressResponse,
    },
    ({ deps, user }) => embeddingProgress(deps, user),
  ),
]
