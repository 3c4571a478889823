import { defineRoute } from '../../lib/route'
import * as s from './schema'
import * as service from './service'

export const searchRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/search',
      tag: 'Search',
      summary: "Search the titles and messages of the caller's chats, best match first",
      access: 'user',
      query: s.searchQuery,
      response: s.searchResponse,
    },
    ({ deps, user, query }) => service.searchChats(deps, user, query),
  ),
]
