import { sso } from '@better-auth/sso'
import type { DBAdapter, DBTransactionAdapter } from 'better-auth'
import type { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { APIError } from 'better-auth/api'
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { ssoDomains, ssoProviders, users } from '../../db/schema'
import { recordAudit } from '../api/audit/access'
import { seatAvailable, seatsOverbooked } from '../api/invites/access'
import type { Config } from '../lib/config'
import type { Logger } from '../lib/logger'
import { readSecret } from '../lib/secret-box'
import { CLIENT_ADDRESS_HEADER } from './client-address'
import { SSO_REQUEST_ID_HEADER } from './saml-state'

/** The path of the OpenID Connect redirect back to Kontor (better-auth's, below /api/auth). */
export const SSO_CALLBACK_PATH = '/sso/callback/'
/** The path where a SAML identity provider posts its response (better-auth's assertion consumer service). */
export const SAML_ACS_PATH = '/sso/saml2/sp/acs/'

type Deps = { db: Database; config: Config; logger: Logger }
type HookContext = { path?: string; params?: Record<string, string | undefined>; request?: Request } | null | undefined

/** The provider of an SSO callback (OpenID Connect) or SAML response being served, or null for any other request. */
function callbackProviderId(ctx: HookContext): string | null {
  const path = ctx?.path ?? ''
  return path.startsWith(SSO_CALLBACK_PATH) || path.startsWith(SAML_ACS_PATH) ? (ctx?.params?.providerId ?? null) : null
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase()

/**
 * better-auth's SSO plugin signs in through the organisation's provider. Providers are written by
 * Kontor's SSO service (src/api/sso), which proves the domains; the plugin's own registration and
 * DNS endpoints are not reachable (its handler is mounted for the callback only).
 */
export function ssoPlugin() {
  return sso({ domainVerification: { enabled: true } })
}

/**
 * Origins better-auth may fetch from although they are internal: the hosts the operator allowed
 * for outbound requests (KONTOR_FETCH_ALLOWED_HOSTS), on any port. Address ranges are not origins
 * and are left out.
 */
export function trustedIdentityOrigins(config: Config): string[] {
  return config.fetchAllowedHosts
    .filter((host) => !host.includes('/') && !host.includes(':'))
    .flatMap((host) => [`http://${host}`, `https://${host}`, `http://${host}:*`, `https://${host}:*`])
}

/**
 * The columns a member created at their first SSO sign-in gets: the provider's organisation and
 * default role. Refused (the callback redirects to the sign-in page with the code) when the address
 * is outside the organisation's proven domains or, in the cloud, when no seat is free.
 */
export async function ssoNewMember(deps: Deps, ctx: HookContext, email: string) {
  const providerId = callbackProviderId(ctx)
  if (!providerId) return null
  const provider = await deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.providerId, providerId) })
  if (!provider) throw new APIError('FORBIDDEN', { code: 'SSO_NOT_CONFIGURED', message: 'Single sign-on is not configured.' })
  const claimed = await deps.db.query.ssoDomains.findFirst({
    where: and(eq(ssoDomains.domain, domainOf(email)), eq(ssoDomains.organizationId, provider.organizationId), isNotNull(ssoDomains.verifiedAt)),
  })
  if (!claimed) throw new APIError('FORBIDDEN', { code: 'SSO_DOMAIN_NOT_CLAIMED', message: "This address is not at one of the organisation's domains." })
  const [seat] = await deps.db.all<{ free: number }>(sql`SELECT ${seatAvailable(deps.config, provider.organizationId)} AS free`)
  if (!Number(seat?.free)) throw new APIError('FORBIDDEN', { code: 'SSO_NO_SEAT', message: 'Your organisation has no free seat.' })
  return { organizationId: provider.organizationId, role: provider.defaultRole, emailVerified: true }
}

/**
 * The seat check before a first SSO sign-in and better-auth's insert of the member are two
 * statements: of several first sign-ins at once, each could see the last seat free. After the
 * insert, a member who made the organisation use more seats than it has is removed again and the
 * sign-in refused (`SSO_NO_SEAT`); at worst two refusals where one would have fitted, never one
 * member too many.
 */
export async function undoSsoMemberBeyondSeats(deps: Deps, ctx: HookContext, user: { id: string; organizationId?: string }) {
  if (!callbackProviderId(ctx) || !deps.config.isCloud || !user.organizationId) return
  const [over] = await deps.db.all<{ over: number }>(sql`SELECT ${seatsOverbooked(deps.config, user.organizationId)} AS over`)
  if (!Number(over?.over)) return
  await deps.db.delete(users).where(eq(users.id, user.id))
  throw new APIError('FORBIDDEN', { code: 'SSO_NO_SEAT', message: 'Your organisation has no free seat.' })
}

/**
 * An SSO sign-in (or the link of an SSO account) of an existing user is theirs only when the user
 * is a member of the provider's organisation and their address is at one of its proven domains:
 * another organisation's identity provider never vouches for them, whatever address it asserts.
 * Requests other than an SSO callback are left alone.
 */
export async function refuseSsoOfOtherOrganization(deps: Deps, ctx: HookContext, userId: string) {
  const providerId = callbackProviderId(ctx)
  if (!providerId) return
  const [provider, user] = await Promise.all([
    deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.providerId, providerId), columns: { organizationId: true } }),
    deps.db.query.users.findFirst({ where: eq(users.id, userId), columns: { organizationId: true, email: true } }),
  ])
  const proven =
    provider &&
    user &&
    user.organizationId === provider.organizationId &&
    (await deps.db.query.ssoDomains.findFirst({
      where: and(eq(ssoDomains.domain, domainOf(user.email)), eq(ssoDomains.organizationId, provider.organizationId), isNotNull(ssoDomains.verifiedAt)),
    }))
  if (!proven) {
    deps.logger.warn('sso sign-in of a member of another organisation refused', { providerId, userId })
    throw new APIError('FORBIDDEN', { code: 'SSO_OTHER_ORGANIZATION', message: 'This account belongs to another organisation.' })
  }
}

/**
 * Notes an SSO sign-in, or a member created at their first one, in the organisation's audit log;
 * requests other than the SSO callback are left alone.
 */
export async function auditSso(deps: Deps, ctx: HookContext, userId: string, action: 'sign_in.sso' | 'member.created_by_sso') {
  const providerId = callbackProviderId(ctx)
  if (!providerId) return
  const user = await deps.db.query.users.findFirst({ where: eq(users.id, userId) })
  if (!user) return
  const headers = ctx?.request?.headers
  const from = { requestId: headers?.get(SSO_REQUEST_ID_HEADER) ?? '', address: headers?.get(CLIENT_ADDRESS_HEADER) ?? '' }
  await recordAudit(deps, user, from, {
    action,
    target: { type: 'user', id: user.id, label: user.email },
    details: action === 'sign_in.sso' ? { providerId } : { providerId, role: user.role },
  })
}

type AdapterFactory = ReturnType<typeof drizzleAdapter>

/**
 * The plugin reads a provider's client secret from `oidcConfig`; Kontor stores it encrypted
 * (src/lib/secret-box.ts), so providers read through the adapter carry it decrypted.
 */
export function withDecryptedSsoSecrets(factory: AdapterFactory, config: Config): AdapterFactory {
  return (options) => {
    const adapter = factory(options)
    return { ...wrap(adapter, config), transaction: (callback) => adapter.transaction((trx) => callback(wrap(trx, config))) } as DBAdapter
  }
}

async function decrypted<T>(row: T, config: Config): Promise<T> {
  const stored = (row as { oidcConfig?: unknown } | null)?.oidcConfig
  if (typeof stored !== 'string') return row
  const oidc = JSON.parse(stored) as { clientSecret?: string }
  if (oidc.clientSecret) oidc.clientSecret = await readSecret(config, oidc.clientSecret)
  return { ...row, oidcConfig: JSON.stringify(oidc) }
}

function wrap<A extends DBTransactionAdapter>(adapter: A, config: Config): A {
  return {
    ...adapter,
    async findOne(input) {
      const row = await adapter.findOne(input)
      return input.model === 'ssoProvider' ? decrypted(row, config) : row
    },
    async findMany(input) {
      const rows = await adapter.findMany(input)
      return input.model === 'ssoProvider' ? Promise.all(rows.map((row) => decrypted(row, config))) : rows
    },
  } as A
}
