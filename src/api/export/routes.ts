import { defineRoute } from '../../lib/route'
import * as s from './schema'
import * as service from './service'

const tag = 'Export'

export const exportRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/threads/:id/export',
      tag,
      summary: "Download one of the caller's chats as Markdown or JSON",
      access: 'user',
      params: s.exportThreadParams,
      query: s.exportThreadQuery,
      download: ['text/markdown', 'application/json'],
      errors: ['THREAD_NOT_FOUND'],
    },
    ({ deps, user, params, query }) => service.exportThread(deps, user, params.id, query.format),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/export',
      tag,
      summary: "Download all of the caller's data as a ZIP: chats (JSON and Markdown), their files, prompts and agents",
      access: 'user',
      download: ['application/zip'],
    },
    async ({ deps, user }) => service.exportAll(deps, user),
  ),
]
