import { z } from 'zod'
import { defineRoute } from '../../lib/route'
import * as s from './schema'
import * as service from './service'

const tag = 'API keys'

export const apiKeyRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/api-keys',
      tag,
      summary: "The caller's API keys; with scope=organization (admins) every key of the organisation",
      access: 'user',
      query: s.listApiKeysQuery,
      response: z.array(s.apiKeyResponse),
      errors: ['FORBIDDEN'],
    },
    ({ deps, user, query }) => service.listApiKeys(deps, user, query.scope),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/api-keys',
      tag,
      summary: 'Create a personal API key (the answer is the only time `key` is shown)',
      access: 'user',
      body: s.createApiKeyBody,
      response: s.createdApiKeyResponse,
      status: 201,
      errors: ['API_ACCESS_DISABLED'],
    },
    async ({ c, deps, user, body }) => c.json(await service.createApiKey(deps, user, body), 201),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/api-keys/:id',
      tag,
      summary: 'Revoke an API key (own keys; admins: any key of the organisation)',
      access: 'user',
      params: s.apiKeyIdParams,
      status: 204,
      errors: ['API_KEY_NOT_FOUND'],
    },
    async ({ deps, user, params }) => {
      await service.revokeApiKey(deps, user, params.id)
    },
  ),
  defineRoute(
    { method: 'get', path: '/api-keys/settings', tag, summary: "Whether the organisation's API keys work", access: 'user', response: s.apiSettingsResponse },
    ({ deps, user }) => service.apiSettings(deps, user),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/api-keys/settings',
      tag,
      summary: "Switch the organisation's API access on or off",
      access: 'admin',
      body: s.apiSettingsBody,
      response: s.apiSettingsResponse,
    },
    ({ deps, user, body }) => service.updateApiSettings(deps, user, body),
  ),
]
