import { defineRoute } from '../../lib/route'
import { outboxListResponse } from './schema'
import * as service from './service'

const tag = 'Development'

export const outboxRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/dev/outbox',
      tag,
      summary: "Development and demo only: the mails Kontor sent to the organisation's members and invitees, newest first (404 in production)",
      access: 'admin',
      response: outboxListResponse,
      errors: ['NOT_FOUND'],
    },
    ({ deps, user }) => service.listOutbox(deps, user),
  ),
]
