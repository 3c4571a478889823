import { defineRoute } from '../../lib/route'
import * as s from './schema'
import * as service from './service'

const tag = 'Groups'

export const groupRoutes = [
  defineRoute(
    { method: 'get', path: '/groups', tag, summary: "The organisation's groups with their members", access: 'admin', response: s.groupListResponse },
    ({ deps, user }) => service.listGroups(deps, user),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/groups',
      tag,
      summary: 'Create a group',
      access: 'admin',
      body: s.groupBody,
      response: s.groupResponse,
      status: 201,
      errors: ['GROUP_NAME_TAKEN'],
    },
    async ({ c, deps, user, body }) => c.json(await service.createGroup(deps, user, body.name), 201),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/groups/:id',
      tag,
      summary: 'Rename a group',
      access: 'admin',
      params: s.groupIdParams,
      body: s.groupBody,
      response: s.groupResponse,
      errors: ['GROUP_NOT_FOUND', 'GROUP_NAME_TAKEN'],
    },
    ({ deps, user, params, body }) => service.renameGroup(deps, user, params.id, body.name),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/groups/:id',
      tag,
      summary: 'Delete a group (its members stay in the organisation)',
      access: 'admin',
      params: s.groupIdParams,
      status: 204,
      errors: ['GROUP_NOT_FOUND'],
    },
    async ({ deps, user, params }) => {
      await service.deleteGroup(deps, user, params.id)
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/groups/:id/members',
      tag,
      summary: 'Add members to a group (all or none)',
      access: 'admin',
      params: s.groupIdParams,
      body: s.addMembersBody,
      response: s.groupResponse,
      errors: ['GROUP_NOT_FOUND'],
    },
    ({ deps, user, params, body }) => service.addMembers(deps, user, params.id, body.userIds),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/groups/:id/members/:userId',
      tag,
      summary: 'Remove a member from a group',
      access: 'admin',
      params: s.groupMemberParams,
      response: s.groupResponse,
      errors: ['GROUP_NOT_FOUND', 'USER_NOT_FOUND'],
    },
    ({ deps, user, params }) => service.removeMember(deps, user, params.id, params.userId),
  ),
]
