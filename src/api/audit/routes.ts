import { defineRoute } from '../../lib/route'
import { auditListQuery, auditListResponse } from './schema'
import * as service from './service'

const tag = 'Audit log'

export const auditRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/audit-log',
      tag,
      summary: "The organisation's audit log, newest first, filtered and paged (admins)",
      access: 'admin',
      query: auditListQuery,
      response: auditListResponse,
    },
    ({ deps, user, query }) => service.listAuditEntries(deps, user, query),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/audit-log.csv',
      tag,
      summary: 'The filtered audit log as a CSV download (admins)',
      access: 'admin',
      query: auditListQuery,
    },
    async ({ c, deps, user, query }) => {
      const csv = await service.auditCsv(deps, user, query)
      const day = new Date().toISOString().slice(0, 10)
      return c.body(csv, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="audit-log-${day}.csv"`,
      })
    },
  ),
]
