import { z } from 'zod'
import { defineRoute } from '../../lib/route'
import { auditFrom } from '../audit/access'
import * as s from './schema'
import * as tokens from './tokens'

const tag = 'SCIM provisioning'

/** The admin's side of SCIM: the organisation's bearer tokens (the protocol itself is under /scim/v2). */
export const scimTokenRoutes = [
  defineRoute(
    { method: 'get', path: '/scim-tokens', tag, summary: "The organisation's SCIM tokens, newest first", access: 'admin', response: z.array(s.scimTokenResponse) },
    ({ deps, user }) => tokens.listScimTokens(deps, user),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/scim-tokens',
      tag,
      summary: 'Create a SCIM bearer token (the answer is the only time `token` is shown)',
      access: 'admin',
      body: s.createScimTokenBody,
      response: s.createdScimTokenResponse,
      status: 201,
    },
    async ({ c, deps, user, body }) => c.json(await tokens.createScimToken(deps, user, body.name, auditFrom(c)), 201),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/scim-tokens/:id',
      tag,
      summary: 'Revoke a SCIM token (it stops working at once)',
      access: 'admin',
      params: s.scimTokenParams,
      status: 204,
      errors: ['SCIM_TOKEN_NOT_FOUND'],
    },
    async ({ c, deps, user, params }) => {
      await tokens.revokeScimToken(deps, user, params.id, auditFrom(c))
    },
  ),
]
