import { z } from 'zod'
import { defineRoute } from '../../lib/route'
import { jsonWithCookies } from '../../lib/respond'
import { auditFrom } from '../audit/access'
import * as s from './schema'
import * as service from './service'

const tag = 'Passkeys'

/** A member's passkeys: open to `session` callers, since a passkey is one way to meet the organisation's requirement of a second factor. */
export const passkeyRoutes = [
  defineRoute(
    { method: 'get', path: '/passkeys', tag, summary: "The caller's passkeys", access: 'session', response: z.array(s.passkeyView) },
    ({ deps, user }) => service.listPasskeys(deps, user),
  ),
  defineRoute(
    { method: 'post', path: '/passkeys/options', tag, summary: 'A challenge to create a passkey with (WebAuthn registration options)', access: 'session', response: s.webAuthnOptions },
    async ({ c, deps }) => {
      const result = await service.registrationOptions(deps, c.req.raw.headers)
      return jsonWithCookies(c, result.body, result.headers)
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/passkeys',
      tag,
      summary: "Keep the passkey the browser created for the challenge, under a name",
      access: 'session',
      body: s.addPasskeyBody,
      response: s.passkeyView,
      status: 201,
      errors: ['PASSKEY_FAILED', 'RECENT_SIGN_IN_REQUIRED'],
    },
    async ({ c, deps, user, body }) => c.json(await service.addPasskey(deps, user, c.req.raw.headers, body, auditFrom(c)), 201),
  ),
  defineRoute(
    { method: 'patch', path: '/passkeys/:id', tag, summary: 'Rename one of the caller’s passkeys', access: 'session', params: s.passkeyParams, body: s.renamePasskeyBody, response: s.passkeyView, errors: ['PASSKEY_NOT_FOUND'] },
    ({ c, deps, user, params, body }) => service.renamePasskey(deps, user, c.req.raw.headers, params.id, body.name),
  ),
  defineRoute(
    { method: 'delete', path: '/passkeys/:id', tag, summary: 'Remove one of the caller’s passkeys', access: 'session', params: s.passkeyParams, status: 204, errors: ['PASSKEY_NOT_FOUND'] },
    async ({ c, deps, user, params }) => {
      await service.removePasskey(deps, user, c.req.raw.headers, params.id, auditFrom(c))
      return c.body(null, 204)
    },
  ),
]
