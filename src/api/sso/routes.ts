import type { Context } from 'hono'
import { z } from 'zod'
import { withClientAddress } from '../../auth/client-address'
import { clearSamlStateCookie, samlStateCookieUsable, samlStateMatches, SSO_REQUEST_ID_HEADER } from '../../auth/saml-state'
import type { AppDeps, AppEnv } from '../../lib/context'
import { AppError } from '../../lib/errors'
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
    ({ c, deps, params }) => finishSignIn(c, deps, params.providerId, 'GET'),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/auth/sso/saml2/sp/acs/:providerId',
      tag,
      summary: "Where a SAML identity provider posts its response (form: SAMLResponse, RelayState); redirects to /chat, or to /login with an error",
      access: 'public',
      params: z.object({ providerId: z.string().min(1).max(64) }),
      status: 302,
    },
    ({ c, deps, params }) => finishSignIn(c, deps, params.providerId, 'POST'),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/auth/sso/saml2/sp/metadata',
      tag,
      summary: "Kontor's SAML service-provider metadata for a provider (its URL is Kontor's entity ID)",
      access: 'public',
      query: z.object({ providerId: z.string().min(1).max(64) }),
      download: ['application/samlmetadata+xml'],
    },
    async ({ c, deps }) => {
      const response = await deps.auth.handler(new Request(c.req.raw.url, { method: 'GET', headers: { accept: 'application/xml' } }))
      if (response.status !== 200) throw new AppError('NOT_FOUND')
      return new Response(await response.text(), { headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8' } })
    },
  ),
]

/**
 * Hands an identity provider's answer to better-auth's plugin, which finishes the sign-in: the
 * OpenID Connect callback (GET) or the SAML response (POST, a form the provider's page submits).
 * The audit entries it leads to need the request's id and address, set here in headers of Kontor's own.
 */
async function finishSignIn(c: Context<AppEnv>, deps: AppDeps, providerId: string, method: 'GET' | 'POST') {
  const from = auditFrom(c)
  const headers = withClientAddress(c.req.raw.headers, from.address)
  headers.set(SSO_REQUEST_ID_HEADER, from.requestId)
  const body = method === 'POST' ? await c.req.raw.arrayBuffer() : undefined
  const bound = method === 'POST' && samlStateCookieUsable(deps.config.baseUrl)
  // A SAML response uses up the browser's state cookie, whatever comes of it.
  const done = (response: Response) => {
    if (!bound) return response
    const out = new Response(response.body, response)
    out.headers.append('set-cookie', clearSamlStateCookie())
    return out
  }
  if (bound) {
    // Only the browser that started the sign-in may finish it (login forgery): its cookie holds the RelayState's hash.
    const relayState = new URLSearchParams(new TextDecoder().decode(body)).get('RelayState')
    if (!(await samlStateMatches(c.req.header('cookie') ?? null, relayState))) {
      c.get('logger').warn('sso sign-in failed', { providerId, code: 'invalid_state' })
      return done(failed('invalid_state'))
    }
  }
  if (method === 'GET' && !(await service.providerEndpointsReachable(deps, providerId))) {
    c.get('logger').warn('sso sign-in failed', { providerId, code: 'SSO_PROVIDER_REFUSED' })
    return done(failed('SSO_PROVIDER_REFUSED'))
  }
  const response = await deps.auth.handler(new Request(c.req.raw.url, { method, headers, body }))
  if (method === 'POST' && response.status >= 400 && response.status < 500) {
    // The plugin refuses a SAML response it cannot read at all (unreadable, oversized, no such provider) with an error of its own.
    const reason = await response.text().then((text) => text.slice(0, 300), () => '')
    c.get('logger').warn('sso sign-in failed', { providerId, status: response.status, reason })
    return done(failed('invalid_saml_response'))
  }
  // A sign-in that failed goes back to /login with its code, logged with the request's id. (The
  // plugin sends a SAML failure without a usable RelayState, such as a replay, to the provider's
  // callback URL instead.)
  const location = response.headers.get('location') ?? ''
  const failure = location ? new URL(location, deps.config.baseUrl).searchParams.get('error') : null
  if (failure) {
    c.get('logger').warn('sso sign-in failed', { providerId, code: failure })
    const redirected = new Headers(response.headers)
    redirected.set('location', `/login?error=${encodeURIComponent(failure)}`)
    return done(new Response(null, { status: 302, headers: redirected }))
  }
  return done(response)
}

const failed = (code: string) => new Response(null, { status: 302, headers: { location: `/login?error=${encodeURIComponent(code)}` } })

