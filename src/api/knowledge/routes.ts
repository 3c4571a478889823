import { backgroundOf, defineRoute } from '../../lib/route'
import * as s from './schema'
import * as service from './service'

const tag = 'Knowledge'

export const knowledgeRoutes = [
  defineRoute(
    { method: 'get', path: '/collections', tag, summary: "Knowledge collections the caller may read: their own and those shared with them, each with the caller's role", access: 'user', response: s.collectionListResponse },
    ({ deps, user }) => service.listCollections(deps, user),
  ),
  defineRoute(
    { method: 'post', path: '/collections', tag, summary: 'Create a knowledge collection (private until shared)', access: 'user', body: s.createCollectionBody, response: s.collectionResponse, status: 201 },
    async ({ c, deps, user, body }) => c.json(await service.createCollection(deps, user, body), 201),
  ),
  defineRoute(
    { method: 'get', path: '/collections/share-targets', tag, summary: 'The groups of the organisation a collection can be shared with', access: 'user', response: s.shareTargetsResponse },
    ({ deps, user }) => service.shareTargets(deps, user),
  ),
  defineRoute(
    { method: 'get', path: '/collections/:id', tag, summary: 'One collection with its sharing', access: 'user', params: s.collectionParams, response: s.collectionResponse, errors: ['COLLECTION_NOT_FOUND'] },
    ({ deps, user, params }) => service.getCollection(deps, user, params.id),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/collections/:id',
      tag,
      summary: 'Rename a collection or change its description (owner and editors)',
      access: 'user',
      params: s.collectionParams,
      body: s.updateCollectionBody,
      response: s.collectionResponse,
      errors: ['COLLECTION_NOT_FOUND', 'FORBIDDEN'],
    },
    ({ deps, user, params, body }) => service.updateCollection(deps, user, params.id, body),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/collections/:id/sharing',
      tag,
      summary: 'Share a collection with the organisation and/or groups, as reader or editor, or keep it private (owner only)',
      access: 'user',
      params: s.collectionParams,
      body: s.sharingBody,
      response: s.collectionResponse,
      errors: ['COLLECTION_NOT_FOUND', 'FORBIDDEN'],
    },
    ({ deps, user, params, body }) => service.shareCollection(deps, user, params.id, body),
  ),
  defineRoute(
    { method: 'delete', path: '/collections/:id', tag, summary: 'Delete a collection with its files (owner only)', access: 'user', params: s.collectionParams, status: 204, errors: ['COLLECTION_NOT_FOUND', 'FORBIDDEN'] },
    async ({ deps, user, params }) => {
      await service.deleteCollection(deps, user, params.id)
    },
  ),
  defineRoute(
    { method: 'get', path: '/collections/:id/files', tag, summary: "A collection's files with their processing status", access: 'user', params: s.collectionParams, response: s.collectionFileListResponse, errors: ['COLLECTION_NOT_FOUND'] },
    ({ deps, user, params }) => service.listFiles(deps, user, params.id),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/collections/:id/files',
      tag,
      summary: 'Upload a file into a collection (multipart/form-data: file, name?, description?; owner and editors); a file of the same name is replaced once the new one is processed',
      access: 'user',
      params: s.collectionParams,
      status: 201,
      errors: ['COLLECTION_NOT_FOUND', 'FORBIDDEN', 'EMBEDDING_MODEL_REQUIRED', 'TOO_MANY_COLLECTION_FILES', 'FILE_TOO_LARGE', 'FILE_EMPTY', 'UPLOAD_INCOMPLETE', 'UNSUPPORTED_FILE_TYPE', 'UNSUPPORTED_MEDIA_TYPE', 'VALIDATION_FAILED'],
    },
    async ({ c, deps, user, params }) => c.json(await service.uploadToCollection(deps, user, params.id, c.req.raw, backgroundOf(c)), 201),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/collections/:id/files/:fileId/retry',
      tag,
      summary: 'Process a failed file of a collection again (owner and editors; a file that is not failed is left as it is)',
      access: 'user',
      params: s.collectionFileParams,
      response: s.collectionFileResponse,
      errors: ['COLLECTION_NOT_FOUND', 'FORBIDDEN', 'SOURCE_NOT_FOUND'],
    },
    ({ c, deps, user, params }) => service.retryFile(deps, user, params.id, params.fileId, backgroundOf(c)),
  ),
  defineRoute(
    { method: 'delete', path: '/collections/:id/files/:fileId', tag, summary: 'Remove a file from a collection with its passages (owner and editors)', access: 'user', params: s.collectionFileParams, status: 204, errors: ['COLLECTION_NOT_FOUND', 'FORBIDDEN', 'SOURCE_NOT_FOUND'] },
    async ({ deps, user, params }) => {
      await service.deleteFile(deps, user, params.id, params.fileId)
    },
  ),
  defineRoute(
    { method: 'get', path: '/threads/:id/collections', tag, summary: 'The collections attached to a chat', access: 'user', params: s.collectionParams, response: s.attachedCollectionListResponse, errors: ['THREAD_NOT_FOUND'] },
    ({ deps, user, params }) => service.threadCollectionList(deps, user, params.id),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/threads/:id/collections/:collectionId',
      tag,
      summary: "Attach a collection the caller may read to their chat: the chat's source_query searches it",
      access: 'user',
      params: s.threadCollectionParams,
      response: s.attachedCollectionListResponse,
      errors: ['THREAD_NOT_FOUND', 'COLLECTION_NOT_FOUND', 'VALIDATION_FAILED'],
    },
    ({ deps, user, params }) => service.attachCollection(deps, user, params.id, params.collectionId),
  ),
  defineRoute(
    { method: 'delete', path: '/threads/:id/collections/:collectionId', tag, summary: 'Detach a collection from a chat', access: 'user', params: s.threadCollectionParams, response: s.attachedCollectionListResponse, errors: ['THREAD_NOT_FOUND'] },
    ({ deps, user, params }) => service.detachCollection(deps, user, params.id, params.collectionId),
  ),
]
