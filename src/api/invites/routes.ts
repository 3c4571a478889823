import { auditFrom } from '../audit/access'
import { meResponse } from '../auth/schema'
import { jsonWithCookies } from '../../lib/respond'
import { defineRoute } from '../../lib/route'
import { acceptInvite, previewInvite } from './accept'
import * as s from './schema'
import * as service from './service'

const tag = 'Invites'

export const inviteRoutes = [
  defineRoute(
    {
      method: 'post',
      path: '/invites',
      tag,
      summary: 'Invite an address with a role (sends it again when one is pending)',
      access: 'admin',
      body: s.createInviteBody,
      response: s.inviteResponse,
      status: 201,
      errors: ['USER_EXISTS', 'INVITE_NOT_POSSIBLE'],
    },
    async ({ c, deps, user, body }) => c.json(await service.createInvite(deps, user, body, auditFrom(c)), 201),
  ),
  defineRoute(
    { method: 'get', path: '/invites', tag, summary: "The organisation's invitations", access: 'admin', response: s.inviteListResponse },
    ({ deps, user }) => service.listInvites(deps, user),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/invites/preview',
      tag,
      summary: 'Look up an invitation by its token (for /accept-invite)',
      access: 'public',
      query: s.inviteTokenQuery,
      response: s.invitePreviewResponse,
      errors: ['INVITE_INVALID', 'INVITE_ALREADY_ACCEPTED'],
    },
    ({ deps, query }) => previewInvite(deps, query.token),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/invites/accept',
      tag,
      summary: 'Accept an invitation: creates the user and signs them in',
      access: 'public',
      body: s.acceptInviteBody,
      response: meResponse,
      status: 201,
      errors: ['INVITE_INVALID', 'INVITE_ALREADY_ACCEPTED', 'USER_EXISTS', 'SIGNED_IN_AS_OTHER_USER'],
    },
    async ({ c, deps, user, body }) => {
      const result = await acceptInvite(deps, user, body, c.req.raw.headers, auditFrom(c))
      return jsonWithCookies(c, result.body, result.headers, 201)
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/invites/:id',
      tag,
      summary: 'One invitation',
      access: 'admin',
      params: s.inviteIdParams,
      response: s.inviteResponse,
      errors: ['INVITE_NOT_FOUND'],
    },
    ({ deps, user, params }) => service.getInvite(deps, user, params.id),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/invites/:id/resend',
      tag,
      summary: 'Send an invitation again with a new link',
      access: 'admin',
      params: s.inviteIdParams,
      response: s.inviteResponse,
      errors: ['INVITE_NOT_FOUND', 'INVITE_NOT_PENDING', 'INVITE_NOT_POSSIBLE'],
    },
    ({ c, deps, user, params }) => service.resendInvite(deps, user, params.id, auditFrom(c)),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/invites/:id',
      tag,
      summary: 'Revoke an invitation',
      access: 'admin',
      params: s.inviteIdParams,
      status: 204,
      errors: ['INVITE_NOT_FOUND', 'INVITE_NOT_PENDING'],
    },
    async ({ c, deps, user, params }) => {
      await service.revokeInvite(deps, user, params.id, auditFrom(c))
    },
  ),
]
