import { z } from 'zod'
import { defineRoute } from '../../lib/route'
import { auditFrom } from '../audit/access'
import * as s from './schema'
import * as service from './service'

const tag = 'Sessions'

export const sessionRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/sessions',
      tag,
      summary: "The caller's active sessions: device, address, when signed in and last seen; `current` marks the one asking",
      access: 'session',
      response: z.array(s.sessionResponse),
    },
    ({ c, deps, user }) => service.listOwnSessions(deps, user, c.req.raw.headers),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/sessions/end-others',
      tag,
      summary: 'Sign out every other browser and device of the caller',
      access: 'session',
      response: s.endedSessionsResponse,
    },
    ({ c, deps, user }) => service.endOtherSessions(deps, user, c.req.raw.headers, auditFrom(c)),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/sessions/:id',
      tag,
      summary: 'End one of the caller’s sessions (the current one too: that signs this browser out)',
      access: 'session',
      params: s.sessionIdParams,
      status: 204,
      errors: ['SESSION_NOT_FOUND'],
    },
    async ({ c, deps, user, params }) => {
      await service.endOwnSession(deps, user, params.id, auditFrom(c))
    },
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/users/:id/sessions',
      tag,
      summary: 'End every session of a member of the organisation (admins)',
      access: 'admin',
      params: s.memberSessionsParams,
      response: s.endedSessionsResponse,
      errors: ['USER_NOT_FOUND'],
    },
    ({ c, deps, user, params }) => service.endMemberSessions(deps, user, params.id, auditFrom(c)),
  ),
]
