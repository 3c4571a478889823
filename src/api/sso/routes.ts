import { z } from 'zod'
import { withClientAddress } from '../../auth/client-address'
import { SSO_REQUEST_ID_HEADER } from '../../auth/sso'
import { defineRoute } from '../../lib/route'
import { jsonWithCookies } from '../../lib/respond'
import { auditFrom } from '../audit/access'
import * as s from './schema'
import * as service from './service'

const tag = 'Single sign-on'

export const ssoRoutes = [
  defineRoute(
    { method: 'get', path: '/sso', tag, summary: "The organisation's OpenID Connect provider and domains", access: 'admin', response: s.ssoSettingsResponse },
    ({ deps, user }) => service.getSsoSettings(deps, user),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/sso',
      tag,
      summary: "Configure the organisation's OpenID Connect provider (the issuer's discovery document is read first)",
      access: 'admin',
      body: s.ssoSettingsBody,
      response: s.ssoSettingsResponse,
      errors: ['SSO_DOMAIN_TAKEN'],
    },
    ({ c, deps, user, body }) => service.saveSsoSettings(deps, user, body, auditFrom(c)),
  ),
  defineRoute(
    { method: 'delete', path: '/sso', tag, summary: "Remove the organisation's provider and free its domains", access: 'admin', status: 204, errors: ['SSO_NOT_CONFIGURED'] },
    async ({ c, deps, user }) => {
      await service.removeSsoSettings(deps, user, auditFrom(c))
    },
  ),
  defineRoute(
    {
      method: 'post',
      path: '/sso/domains/:domain/verify',
      tag,
      summary: "Prove a domain by its TXT record (cloud); the answer is the settings with the domain's state",
      access: 'admin',
      params: s.ssoDomainParams,
      response: s.ssoSettingsResponse,
      errors: ['NOT_FOUND', 'SSO_DOMAIN_NOT_VERIFIED'],
    },
    ({ c, deps, user, params }) => service.verifySsoDomain(deps, user, params.domain, auditFrom(c)),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/auth/sso/lookup',
      tag,
      summary: "Whether an address signs in through its organisation's identity provider",
      access: 'public',
      body: s.ssoEmailBody,
      response: s.ssoLookupResponse,
    },
    ({ deps, body }) => service.lookupSso(deps, body.email),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/auth/sso/start',
      tag,
      summary: "Start signing in at the identity provider of the address's domain (answers the URL to open)",
      access: 'public',
      body: s.ssoEmailBody,
      response: s.ssoStartResponse,
      errors: ['SSO_NOT_CONFIGURED'],
    },
    async ({ c, deps, body }) => {
      const result = await service.startSsoSignIn(deps, body.email, c.req.raw.headers)
      return jsonWithCookies(c, result.body, result.headers)
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/auth/sso/callback/:providerId',
      tag,
      summary: 'Where the identity provider sends the browser back; redirects to /chat, or to /login with an error',
      access: 'public',
      params: z.object({ providerId: z.string().min(1).max(64) }),
      status: 302,
    },
    async ({ c, deps, params }) => {
      // better-auth's plugin finishes the sign-in; the audit entries it leads to need the request's id and address.
      const from = auditFrom(c)
      const headers = withClientAddress(c.req.raw.headers, from.address)
      headers.set(SSO_REQUEST_ID_HEADER, from.requestId)
      const response = await deps.auth.handler(new Request(c.req.raw.url, { method: 'GET', headers }))
      // A sign-in that failed goes back to /login with its code: logged with the request's id.
      const location = response.headers.get('location') ?? ''
      const failure = location.startsWith('/login') ? new URL(location, deps.config.baseUrl).searchParams.get('error') : null
      if (failure) c.get('logger').warn('sso sign-in failed', { providerId: params.providerId, code: failure })
      return response
    },
  ),
]
