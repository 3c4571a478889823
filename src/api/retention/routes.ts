import { auditFrom } from '../audit/access'
import { defineRoute } from '../../lib/route'
import * as s from './schema'
import * as service from './service'

const tag = 'Organisation'

export const retentionRoutes = [
  defineRoute(
    { method: 'get', path: '/organization/retention', tag, summary: 'How long chats and uploaded files are kept (admins)', access: 'admin', response: s.retentionResponse },
    ({ deps, user }) => service.getRetention(deps, user),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/organization/retention',
      tag,
      summary: 'Set how long chats and uploaded files are kept; null keeps them (admins)',
      access: 'admin',
      body: s.updateRetentionBody,
      response: s.retentionResponse,
    },
    ({ c, deps, user, body }) => service.setRetention(deps, user, body, auditFrom(c)),
  ),
]
