import { defineRoute } from '../../lib/route'
import { usageQuery, usageResponse } from './schema'
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
]
