import { defineRoute } from '../../lib/route'
import { jsonWithCookies } from '../../lib/respond'
import { auditFrom } from '../audit/access'
import * as s from './schema'
import * as service from './service'

const tag = 'Two factors'

/**
 * Setting up a second factor is open to `session` callers: a member whose organisation requires
 * one reaches these routes (and no others) until it is set up.
 */
export const twoFactorRoutes = [
  defineRoute(
    { method: 'get', path: '/two-factor', tag, summary: "The caller's second factors and whether the organisation requires one", access: 'session', response: s.twoFactorStatusResponse },
    ({ deps, user }) => service.status(deps, user),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/two-factor/totp',
      tag,
      summary: 'Start setting up an authenticator app (password confirms): its secret and recovery codes',
      access: 'session',
      body: s.passwordBody,
      response: s.totpSetupResponse,
      errors: ['CURRENT_PASSWORD_INCORRECT', 'TWO_FACTOR_ALREADY_ENABLED'],
    },
    ({ c, deps, body }) => service.startTotp(deps, c.req.raw.headers, body.password),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/two-factor/totp/verify',
      tag,
      summary: "Finish setting up the authenticator app with its first code (the session's cookie is renewed)",
      access: 'session',
      body: s.codeBody,
      response: s.twoFactorStatusResponse,
      errors: ['INVALID_TWO_FACTOR_CODE', 'TWO_FACTOR_NOT_ENABLED', 'TWO_FACTOR_ALREADY_ENABLED'],
    },
    async ({ c, deps, user, body }) => {
      const result = await service.confirmTotp(deps, user, c.req.raw.headers, body.code, auditFrom(c))
      return jsonWithCookies(c, result.body, result.headers)
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/two-factor/totp/disable',
      tag,
      summary: 'Remove the authenticator app and its recovery codes (password confirms)',
      access: 'session',
      body: s.passwordBody,
      response: s.twoFactorStatusResponse,
      errors: ['CURRENT_PASSWORD_INCORRECT', 'TWO_FACTOR_NOT_ENABLED'],
    },
    async ({ c, deps, user, body }) => {
      const result = await service.disableTotp(deps, user, c.req.raw.headers, body.password, auditFrom(c))
      return jsonWithCookies(c, result.body, result.headers)
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/two-factor/recovery-codes',
      tag,
      summary: 'Replace the recovery codes with new ones, shown once (password confirms)',
      access: 'session',
      body: s.passwordBody,
      response: s.recoveryCodesResponse,
      errors: ['CURRENT_PASSWORD_INCORRECT', 'TWO_FACTOR_NOT_ENABLED'],
    },
    ({ c, deps, user, body }) => service.renewRecoveryCodes(deps, user, c.req.raw.headers, body.password, auditFrom(c)),
  ),
  defineRoute(
    { method: 'get', path: '/two-factor/requirement', tag, summary: 'Whether the organisation requires a second factor of members with a password (admins)', access: 'admin', response: s.requirementResponse },
    ({ deps, user }) => service.getRequirement(deps, user),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/two-factor/requirement',
      tag,
      summary: 'Require a second factor of every member with a password, or stop requiring it (admins)',
      access: 'admin',
      body: s.requirementBody,
      response: s.requirementResponse,
    },
    ({ c, deps, user, body }) => service.setRequirement(deps, user, body.required, auditFrom(c)),
  ),
]
