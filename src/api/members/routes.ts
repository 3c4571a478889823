import { auditFrom } from '../audit/access'
import { defineRoute } from '../../lib/route'
import { changeRoleBody, memberIdParams, memberListResponse, memberResponse } from './schema'
import * as service from './service'

const tag = 'Users'

export const memberRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/users',
      tag,
      summary: "Members of the caller's organisation",
      access: 'admin',
      response: memberListResponse,
    },
    ({ deps, user }) => service.listMembers(deps, user),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/users/:id/role',
      tag,
      summary: "Change a member's role",
      access: 'admin',
      params: memberIdParams,
      body: changeRoleBody,
      response: memberResponse,
      errors: ['USER_NOT_FOUND', 'LAST_ADMIN'],
    },
    ({ c, deps, user, params, body }) => service.changeRole(deps, user, params.id, body.role, auditFrom(c)),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/users/:id',
      tag,
      summary: 'Remove a member with their sessions and private data',
      access: 'admin',
      params: memberIdParams,
      status: 204,
      errors: ['USER_NOT_FOUND', 'LAST_ADMIN', 'CANNOT_REMOVE_SELF'],
    },
    async ({ c, deps, user, params }) => {
      await service.removeMember(deps, user, params.id, auditFrom(c))
    },
  ),
]
