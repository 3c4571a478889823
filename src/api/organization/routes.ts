import { defineRoute } from '../../lib/route'
import * as s from './schema'
import * as service from './service'

const tag = 'Organisation'

export const organizationRoutes = [
  defineRoute(
    { method: 'get', path: '/organization', tag, summary: "The caller's organisation (admins)", access: 'admin', response: s.organizationResponse },
    ({ deps, user }) => service.getOrganization(deps, user),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/organization',
      tag,
      summary: "Rename the caller's organisation (admins)",
      access: 'admin',
      body: s.updateOrganizationBody,
      response: s.organizationResponse,
    },
    ({ deps, user, body }) => service.renameOrganization(deps, user, body.name),
  ),
]
