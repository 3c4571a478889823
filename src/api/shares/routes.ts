import { defineRoute } from '../../lib/route'
import { auditFrom } from '../audit/access'
import { threadIdParams, threadSummaryResponse } from '../threads/schema'
import * as s from './schema'
import * as service from './service'

const tag = 'Sharing'

export const shareRoutes = [
  defineRoute(
    {
      method: 'post',
      path: '/threads/:id/shares',
      tag,
      summary: 'Share a snapshot of a chat with the organisation, or with chosen groups of it (read-only link)',
      access: 'user',
      params: threadIdParams,
      body: s.createShareBody,
      response: s.shareResponse,
      status: 201,
      errors: ['THREAD_NOT_FOUND'],
    },
    async ({ c, deps, user, params, body }) => c.json(await service.shareThread(deps, user, params.id, body.groupIds, auditFrom(c)), 201),
  ),
  defineRoute(
    { method: 'get', path: '/threads/:id/shares', tag, summary: "A chat's shares, newest first", access: 'user', params: threadIdParams, response: s.shareListResponse, errors: ['THREAD_NOT_FOUND'] },
    ({ deps, user, params }) => service.sharesOfThread(deps, user, params.id),
  ),
  defineRoute(
    { method: 'get', path: '/shares/:id', tag, summary: 'A chat shared with the caller, as it was when shared', access: 'user', params: s.shareIdParams, response: s.sharedChatResponse, errors: ['SHARE_NOT_FOUND'] },
    ({ deps, user, params }) => service.readShare(deps, user, params.id),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/shares/:id/continue',
      tag,
      summary: "Continue a shared chat: a copy of it becomes one of the caller's chats",
      access: 'user',
      params: s.shareIdParams,
      response: threadSummaryResponse,
      status: 201,
      errors: ['SHARE_NOT_FOUND'],
    },
    async ({ c, deps, user, params }) => c.json(await service.continueShare(deps, user, params.id), 201),
  ),
  defineRoute(
    { method: 'delete', path: '/shares/:id', tag, summary: 'Revoke a share: its link finds nothing from then on', access: 'user', params: s.shareIdParams, status: 204, errors: ['SHARE_NOT_FOUND'] },
    async ({ c, deps, user, params }) => {
      await service.revokeShare(deps, user, params.id, auditFrom(c))
    },
  ),
]
