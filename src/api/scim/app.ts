import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { AppEnv } from '../../lib/context'
import { auditFrom } from '../audit/access'
import type { ScimContext } from './context'
import * as groupsService from './groups'
import { discovery, invalid, listResponse, SCIM_CONTENT_TYPE, ScimError } from './protocol'
import { scimTokenOrganization } from './tokens'
import * as usersService from './users'

type ScimEnv = AppEnv & { Variables: AppEnv['Variables'] & { scim: ScimContext } }

/** The largest SCIM request body: a group with thousands of members fits. */
const SCIM_BODY_LIMIT = 1024 * 1024

const bearer = (c: Context<ScimEnv>) => c.req.header('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1]

function answer(c: Context<ScimEnv>, body: unknown, status: 200 | 201 = 200) {
  return c.body(JSON.stringify(body), status, { 'Content-Type': SCIM_CONTENT_TYPE })
}

async function readBody(c: Context<ScimEnv>): Promise<Record<string, unknown>> {
  const text = await c.req.text()
  try {
    const value = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value
  } catch {}
  throw invalid('The body must be a JSON object', 'invalidSyntax')
}

/**
 * SCIM 2.0 (RFC 7643/7644) at /scim/v2: Users are the members of the token's organisation, Groups
 * its groups. Every call is authenticated by an organisation's SCIM token and reaches that
 * organisation only; errors are answered in SCIM's own format (docs/decisions/0058).
 */
export function createScimApi() {
  const app = new Hono<ScimEnv>()
  app.onError((error, c) => {
    const scim =
      error instanceof ScimError
        ? error
        : error instanceof Error && error.message.includes('Payload Too Large')
          ? new ScimError(413, 'The request body is too large')
          : undefined
    if (scim) {
      if (scim.status === 401) c.header('WWW-Authenticate', 'Bearer realm="SCIM"')
      return c.body(JSON.stringify(scim.toBody()), scim.status, { 'Content-Type': SCIM_CONTENT_TYPE })
    }
    c.get('logger')?.error('unhandled error', { error, method: c.req.method, path: c.req.path })
    const body = { ...new ScimError(500, `Something went wrong on our side (request ${c.get('requestId')}).`).toBody() }
    return c.body(JSON.stringify(body), 500, { 'Content-Type': SCIM_CONTENT_TYPE })
  })
  app.use(
    bodyLimit({
      maxSize: SCIM_BODY_LIMIT,
      onError: () => {
        throw new ScimError(413, 'The request body is too large')
      },
    }),
  )
  app.use(async (c, next) => {
    const deps = c.get('deps')
    const token = await scimTokenOrganization(deps, bearer(c))
    if (!token) throw new ScimError(401, 'The SCIM token is missing, wrong or revoked.')
    c.set('scim', {
      deps,
      organizationId: token.organizationId,
      actor: { organizationId: token.organizationId, name: `SCIM (${token.tokenName})` },
      from: auditFrom(c as unknown as Context<AppEnv>),
      base: `${deps.config.baseUrl}/scim/v2`,
    })
    await next()
  })

  app.get('/ServiceProviderConfig', (c) => answer(c, discovery(c.get('scim').base).serviceProviderConfig))
  // ResourceTypes and Schemas: a list, and each entry by its id.
  for (const [path, key, what] of [['/ResourceTypes', 'resourceTypes', 'Resource type'], ['/Schemas', 'schemas', 'Schema']] as const) {
    app.get(path, (c) => {
      const list: { id: string }[] = discovery(c.get('scim').base)[key]
      return answer(c, listResponse(list, list.length, 1))
    })
    app.get(`${path}/:id`, (c) => {
      const found = (discovery(c.get('scim').base)[key] as { id: string }[]).find((r) => r.id === c.req.param('id'))
      if (!found) throw new ScimError(404, `${what} not found`)
      return answer(c, found)
    })
  }

  app.get('/Users', async (c) => answer(c, await usersService.listUsers(c.get('scim'), c.req.query())))
  app.post('/Users', async (c) => answer(c, await usersService.createUser(c.get('scim'), await readBody(c)), 201))
  app.get('/Users/:id', async (c) => answer(c, await usersService.getUser(c.get('scim'), c.req.param('id'))))
  app.put('/Users/:id', async (c) => answer(c, await usersService.replaceUser(c.get('scim'), c.req.param('id'), await readBody(c))))
  app.patch('/Users/:id', async (c) => answer(c, await usersService.patchUser(c.get('scim'), c.req.param('id'), await readBody(c))))
  app.delete('/Users/:id', async (c) => {
    await usersService.deleteUser(c.get('scim'), c.req.param('id'))
    return c.body(null, 204)
  })

  app.get('/Groups', async (c) => answer(c, await groupsService.listGroups(c.get('scim'), c.req.query())))
  app.post('/Groups', async (c) => answer(c, await groupsService.createGroup(c.get('scim'), await readBody(c)), 201))
  app.get('/Groups/:id', async (c) => answer(c, await groupsService.getGroup(c.get('scim'), c.req.param('id'))))
  app.put('/Groups/:id', async (c) => answer(c, await groupsService.replaceGroup(c.get('scim'), c.req.param('id'), await readBody(c))))
  app.patch('/Groups/:id', async (c) => answer(c, await groupsService.patchGroup(c.get('scim'), c.req.param('id'), await readBody(c))))
  app.delete('/Groups/:id', async (c) => {
    await groupsService.deleteGroup(c.get('scim'), c.req.param('id'))
    return c.body(null, 204)
  })

  app.all('*', () => {
    throw new ScimError(404, 'No such SCIM endpoint')
  })
  return app
}
