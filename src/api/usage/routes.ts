import { defineRoute } from '../../lib/route'
import { ownUsageQuery, usageQuery, usageResponse } from './schema'
import * as service from './service'

export const usageRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/usage',
      tag: 'Usage',
      summary: "The organisation's model usage (tokens and cost) over a range of days, by day, member, group or model",
      access: 'admin',
      query: usageQuery,
      response: usageResponse,
    },
    ({ deps, user, query }) => service.usageReport(deps, user, query),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/usage.csv',
      tag: 'Usage',
      summary: "The organisation's usage report as a CSV download, with the same range and breakdown (admins)",
      access: 'admin',
      query: usageQuery,
    },
    async ({ c, deps, user, query }) => {
      const csv = await service.usageCsv(deps, user, query)
      return c.body(csv, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="usage-${query.by}-${query.from}-${query.to}.csv"`,
      })
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/usage/own',
      tag: 'Usage',
      summary: "The signed-in member's own model usage over a range of days, by day or model",
      access: 'user',
      query: ownUsageQuery,
      response: usageResponse,
    },
    ({ deps, user, query }) => service.ownUsageReport(deps, user, query),
  ),
]
