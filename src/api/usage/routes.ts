import { defineRoute } from '../../lib/route'
import { z } from 'zod'
import { auditFrom } from '../audit/access'
import * as budgets from './budgets'
import { budgetBody, budgetIdParams, budgetResponse, ownUsageQuery, usageQuery, usageResponse } from './schema'
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
  defineRoute(
    { method: 'get', path: '/budgets', tag: 'Usage', summary: "The organisation's monthly budgets with this month's spend (admins)", access: 'admin', response: z.array(budgetResponse) },
    ({ deps, user }) => budgets.listBudgets(deps, user),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/budgets/own',
      tag: 'Usage',
      summary: "The monthly budgets that apply to the signed-in member (the organisation's, their groups', their own) with this month's spend, tightest first",
      access: 'user',
      response: z.array(budgetResponse),
    },
    ({ deps, user }) => budgets.ownBudgets(deps, user),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/budgets',
      tag: 'Usage',
      summary: 'Set the monthly budget (US dollars or tokens) of the organisation, a group or a member (admins)',
      access: 'admin',
      body: budgetBody,
      response: budgetResponse,
    },
    ({ c, deps, user, body }) => budgets.setBudget(deps, user, body, auditFrom(c)),
  ),
  defineRoute(
    { method: 'delete', path: '/budgets/:id', tag: 'Usage', summary: 'Remove a monthly budget (admins)', access: 'admin', params: budgetIdParams, status: 204, errors: ['BUDGET_NOT_FOUND'] },
    async ({ c, deps, user, params }) => {
      await budgets.removeBudget(deps, user, params.id, auditFrom(c))
      return c.body(null, 204)
    },
  ),
]
