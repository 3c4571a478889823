import type { Context } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../lib/context'
import { clientIp, jsonWithCookies } from '../../lib/respond'
import { auditFrom } from '../audit/access'
import { defineRoute } from '../../lib/route'
import { loginBody, loginResponse, meResponse, registerBody, registerResponse, signInCodeBody, passkeySignInBody } from './schema'
import * as service from './service'

const tag = 'Auth'

/** What a sign-in service needs of the request: its headers, the client's address, its logger and id. */
const requestInfo = (c: Context<AppEnv>) => ({
  headers: c.req.raw.headers,
  ip: clientIp(c, c.get('deps').config.trustProxy),
  logger: c.get('logger'),
  requestId: c.get('requestId'),
})

export const authRoutes = [
  defineRoute(
    {
      method: 'post',
      path: '/auth/register',
      tag,
      summary: 'Register an organisation and its first admin',
      access: 'public',
      body: registerBody,
      response: registerResponse,
      status: 201,
      errors: ['REGISTRATION_DISABLED', 'EMAIL_PROVIDER_BLACKLISTED', 'EMAIL_EXISTS', 'TOO_MANY_CONFIRMATION_EMAILS'],
    },
    async ({ c, deps, body }) => {
      const result = await service.register(deps, body, requestInfo(c))
      return jsonWithCookies(c, result.body, result.headers, 201)
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/auth/login',
      tag,
      summary: 'Sign in with e-mail and password',
      access: 'public',
      body: loginBody,
      response: loginResponse,
      errors: ['INVALID_CREDENTIALS', 'TOO_MANY_LOGIN_ATTEMPTS', 'PASSWORD_SIGN_IN_DISABLED'],
    },
    async ({ c, deps, body }) => {
      const result = await service.login(deps, body, requestInfo(c))
      return jsonWithCookies(c, result.body, result.headers)
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/auth/two-factor',
      tag,
      summary: 'Second step of a password sign-in: a code from the authenticator app or a recovery code',
      access: 'public',
      body: signInCodeBody,
      response: meResponse,
      errors: ['INVALID_TWO_FACTOR_CODE', 'TWO_FACTOR_SIGN_IN_EXPIRED', 'TOO_MANY_LOGIN_ATTEMPTS'],
    },
    async ({ c, deps, body }) => {
      const result = await service.signInWithCode(deps, body, requestInfo(c))
      return jsonWithCookies(c, result.body, result.headers)
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/auth/passkey/options',
      tag,
      summary: 'A challenge for signing in with a passkey (WebAuthn authentication options); 30 a minute per address',
      access: 'public',
      response: z.record(z.string(), z.unknown()),
      errors: ['TOO_MANY_REQUESTS'],
    },
    async ({ c, deps }) => {
      const result = await service.passkeySignInOptions(deps, c.req.raw.headers, requestInfo(c).ip)
      return jsonWithCookies(c, result.body, result.headers)
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/auth/passkey',
      tag,
      summary: "Sign in with a passkey: the browser's answer to the challenge",
      access: 'public',
      body: passkeySignInBody,
      response: meResponse,
      errors: ['PASSKEY_FAILED'],
    },
    async ({ c, deps, body }) => {
      const result = await service.signInWithPasskey(deps, body.response, requestInfo(c))
      return jsonWithCookies(c, result.body, result.headers)
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/auth/me',
      tag,
      summary: 'The signed-in user with role and organisation',
      access: 'session',
      response: meResponse,
      errors: ['EMAIL_NOT_VERIFIED'],
    },
    ({ deps, user }) => service.me(deps, user),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/auth/logout',
      tag,
      summary: 'Sign out of this session',
      access: 'public',
      response: z.object({ ok: z.literal(true) }),
    },
    async ({ c, deps, user }) => {
      if (!user) return { ok: true as const }
      return jsonWithCookies(c, { ok: true }, await service.logout(deps, user, c.req.raw.headers, auditFrom(c)))
    },
  ),
]
