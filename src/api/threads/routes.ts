import { auditFrom } from '../audit/access'
import { defineRoute } from '../../lib/route'
import * as s from './schema'
import * as organise from './organise'
import * as service from './service'
import { showVersion } from './versions'

const tag = 'Threads'

export const threadRoutes = [
  defineRoute(
    {
      method: 'post',
      path: '/threads',
      tag,
      summary: 'Start a chat with a model, an agent, or the default model',
      access: 'user',
      body: s.createThreadBody,
      response: s.threadSummaryResponse,
      status: 201,
      errors: ['NO_MODEL_FOUND', 'MODEL_NOT_FOUND', 'AGENT_NOT_FOUND'],
    },
    async ({ c, deps, user, body }) => c.json(await service.createThread(deps, user, body), 201),
  ),
  defineRoute(
    { method: 'get', path: '/threads', tag, summary: "The caller's chats, newest activity first", access: 'user', query: s.listThreadsQuery, response: s.threadListResponse },
    ({ deps, user, query }) => service.listThreads(deps, user, query),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/threads/:id',
      tag,
      summary: 'A chat with its messages, or with the newest of them',
      access: 'user',
      params: s.threadIdParams,
      query: s.threadDetailQuery,
      response: s.threadDetailResponse,
      errors: ['THREAD_NOT_FOUND'],
    },
    ({ deps, user, params, query }) => service.getThread(deps, user, params.id, query),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/threads/:id/messages',
      tag,
      summary: 'The messages of a chat before a cursor, oldest first',
      access: 'user',
      params: s.threadIdParams,
      query: s.olderMessagesQuery,
      response: s.olderMessagesResponse,
      errors: ['THREAD_NOT_FOUND'],
    },
    ({ deps, user, params, query }) => service.olderMessages(deps, user, params.id, query),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/threads/:id/branch',
      tag,
      summary: 'Show another version of a message (a regenerated reply, an edited message); the chat continues from it',
      access: 'user',
      params: s.threadIdParams,
      body: s.showVersionBody,
      status: 204,
      errors: ['THREAD_NOT_FOUND', 'MESSAGE_NOT_FOUND', 'REPLY_IN_PROGRESS'],
    },
    async ({ deps, user, params, body }) => {
      await showVersion(deps, user, params.id, body.messageId)
    },
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/threads/:id',
      tag,
      summary: 'Rename a chat, pin it to the top of the list or unpin it',
      access: 'user',
      params: s.threadIdParams,
      body: s.updateThreadBody,
      response: s.threadSummaryResponse,
      errors: ['THREAD_NOT_FOUND', 'TOO_MANY_PINNED'],
    },
    ({ deps, user, params, body }) => organise.updateThread(deps, user, params.id, body),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/threads',
      tag,
      summary: 'Delete several chats at once (all named or none), or with `all: true` all of the caller\'s chats',
      access: 'user',
      body: s.deleteThreadsBody,
      status: 204,
      errors: ['THREAD_NOT_FOUND'],
    },
    async ({ c, deps, user, body }) => {
      if (body.ids) await organise.deleteThreads(deps, user, body.ids, auditFrom(c))
      else await organise.deleteAllThreads(deps, user, auditFrom(c))
    },
  ),
  defineRoute(
    { method: 'delete', path: '/threads/:id', tag, summary: 'Delete a chat', access: 'user', params: s.threadIdParams, status: 204, errors: ['THREAD_NOT_FOUND'] },
    async ({ deps, user, params }) => {
      await service.deleteThread(deps, user, params.id)
    },
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/threads/:id/model',
      tag,
      summary: "Change a chat's model",
      access: 'user',
      params: s.threadIdParams,
      body: s.setModelBody,
      response: s.threadDetailResponse,
      errors: ['THREAD_NOT_FOUND', 'MODEL_NOT_FOUND', 'NOT_A_LANGUAGE_MODEL'],
    },
    ({ deps, user, params, body }) => service.setThreadModel(deps, user, params.id, body.modelId),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/threads/:id/agent',
      tag,
      summary: "Set or remove a chat's agent",
      access: 'user',
      params: s.threadIdParams,
      body: s.setAgentBody,
      response: s.threadDetailResponse,
      errors: ['THREAD_NOT_FOUND', 'AGENT_NOT_FOUND'],
    },
    ({ deps, user, params, body }) => service.setThreadAgent(deps, user, params.id, body.agentId),
  ),
]
