import { and, eq, inArray, isNotNull, ne, notInArray } from 'drizzle-orm'
import type { z } from 'zod'
import { accounts, ssoDomains, ssoProviders } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { isFreeMailAddress } from '../../lib/free-mail'
import { requireAdmin } from '../../lib/guards'
import { checkOutboundUrl, OutboundError, outboundFetch, serverPolicy } from '../../lib/outbound'
import { encryptSecret } from '../../lib/secret-box'
import { recordAudit, type AuditFrom } from '../audit/access'
import { ssoProviderForEmail } from './access'
import { discoverIssuer } from './discovery'
import { samlStateCookie, samlStateCookieUsable } from '../../auth/saml-state'
import { readSamlIdentityProvider, samlInputGiven, samlPluginConfig, type StoredSamlConfig } from './saml'
import type { SsoSettingsView, ssoSettingsBody } from './schema'

/** The DNS name whose TXT record proves a domain (cloud mode): `_kontor-sso.<domain>`. */
export const TXT_RECORD_PREFIX = '_kontor-sso.'
const txtValue = (token: string) => `kontor-sso-verification=${token}`

const callbackUrl = (deps: AppDeps, providerId: string) => `${deps.config.baseUrl}/api/auth/sso/callback/${providerId}`
/** Kontor's SAML entity ID: the URL of its service-provider metadata for this provider. */
const spEntityId = (deps: AppDeps, providerId: string) => `${deps.config.baseUrl}/api/auth/sso/saml2/sp/metadata?providerId=${encodeURIComponent(providerId)}`
const acsUrl = (deps: AppDeps, providerId: string) => `${deps.config.baseUrl}/api/auth/sso/saml2/sp/acs/${providerId}`
/**
 * A new provider's id is its organisation's, so the redirect URI and the SAML entity ID the
 * screen shows can be registered at the identity provider before the settings are saved.
 */
const providerIdOf = (existing: { providerId: string } | undefined, organizationId: string) => existing?.providerId ?? organizationId

/** The organisation's SSO settings, with the TXT record of each domain still to prove. */
export async function getSsoSettings(deps: AppDeps, caller: SessionUser): Promise<SsoSettingsView> {
  requireAdmin(caller)
  const provider = await deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.organizationId, caller.organizationId) })
  const domains = await deps.db.query.ssoDomains.findMany({ where: eq(ssoDomains.organizationId, caller.organizationId), orderBy: ssoDomains.domain })
  const oidc = provider?.oidcConfig ? (JSON.parse(provider.oidcConfig) as { clientId?: string; clientSecret?: string }) : {}
  const stored = provider?.samlConfig ? (JSON.parse(provider.samlConfig) as StoredSamlConfig) : null
  const saml = stored?.kontor ?? null
  const providerId = providerIdOf(provider, caller.organizationId)
  return {
    configured: !!provider,
    protocol: saml ? 'saml' : 'oidc',
    issuer: provider?.issuer ?? null,
    clientId: oidc.clientId ?? null,
    clientSecretSet: !!oidc.clientSecret,
    saml,
    domains: domains.map((d) => ({
      domain: d.domain,
      verified: d.verifiedAt !== null,
      record: deps.config.isCloud ? { name: `${TXT_RECORD_PREFIX}${d.domain}`, value: txtValue(d.verificationToken) } : null,
    })),
    defaultRole: provider?.defaultRole ?? 'user',
    passwordSignIn: provider?.passwordSignIn ?? true,
    callbackUrl: callbackUrl(deps, providerId),
    // A stored SAML configuration keeps the entity ID it was saved with (the audience its responses must name).
    serviceProvider: { entityId: stored?.issuer ?? spEntityId(deps, providerId), acsUrl: acsUrl(deps, providerId) },
  }
}

/**
 * Configures (or changes) the organisation's OpenID Connect provider. The issuer's discovery
 * document is read first, so a wrong issuer is refused before anything is stored. Domains are
 * the organisation's alone: free-mail domains are refused, a domain another organisation claimed
 * is SSO_DOMAIN_TAKEN. In the cloud a new domain waits for its TXT record; self-hosted, the
 * admin's word proves it.
 */
export async function saveSsoSettings(deps: AppDeps, caller: SessionUser, input: z.infer<typeof ssoSettingsBody>, from: AuditFrom) {
  requireAdmin(caller)
  const domains = [...new Set(input.domains)]
  const freeMail = (await Promise.all(domains.map(async (d) => ((await isFreeMailAddress(`x@${d}`, deps.config.freeMailExtra)) ? d : null)))).find(Boolean)
  if (freeMail) throw new AppError('VALIDATION_FAILED', { fields: { domains: `${freeMail} is a free-mail domain and cannot be claimed` } })
  const taken = await deps.db.query.ssoDomains.findFirst({
    where: and(inArray(ssoDomains.domain, domains), ne(ssoDomains.organizationId, caller.organizationId)),
  })
  if (taken) fail('SSO_DOMAIN_TAKEN')
  const existing = await deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.organizationId, caller.organizationId) })
  const providerId = providerIdOf(existing, caller.organizationId)
  const fetcher = outboundFetch(serverPolicy(deps), { timeoutMs: 10_000, maxBytes: 256 * 1024 })
  const protocol = await (input.protocol === 'saml' ? samlProtocol(deps, fetcher, input, providerId, existing) : oidcProtocol(deps, fetcher, input, existing?.oidcConfig))
  const now = new Date()
  try {
    await deps.db.transaction(async (tx) => {
      await tx.delete(ssoDomains).where(and(eq(ssoDomains.organizationId, caller.organizationId), notInArray(ssoDomains.domain, domains)))
      const kept = new Set((await tx.query.ssoDomains.findMany({ where: eq(ssoDomains.organizationId, caller.organizationId) })).map((d) => d.domain))
      const added = domains.filter((d) => !kept.has(d))
      if (added.length > 0) {
        await tx.insert(ssoDomains).values(
          added.map((domain) => ({
            domain,
            organizationId: caller.organizationId,
            verificationToken: crypto.randomUUID().replaceAll('-', ''),
            verifiedAt: deps.config.isCloud ? null : now,
          })),
        )
      }
      const values = {
        issuer: protocol.issuer,
        oidcConfig: protocol.oidcConfig,
        samlConfig: protocol.samlConfig,
        userId: caller.id,
        defaultRole: input.defaultRole,
        passwordSignIn: input.passwordSignIn,
        updatedAt: now,
      }
      // Accounts are keyed by the provider's id and the person's subject there: another identity
      // provider (or protocol) behind the same id must not inherit them.
      if (existing && (existing.issuer !== protocol.issuer || !existing.samlConfig !== !protocol.samlConfig)) {
        await tx.delete(accounts).where(eq(accounts.providerId, existing.providerId))
      }
      if (existing) await tx.update(ssoProviders).set(values).where(eq(ssoProviders.id, existing.id))
      else await tx.insert(ssoProviders).values({ id: crypto.randomUUID(), providerId, organizationId: caller.organizationId, createdAt: now, ...values })
    })
  } catch (error) {
    if (/UNIQUE.*sso_domains/.test(String((error as { cause?: unknown }).cause ?? error))) fail('SSO_DOMAIN_TAKEN')
    throw error
  }
  await refreshProviderDomains(deps, caller.organizationId)
  await recordAudit(deps, caller, from, {
    action: 'sso.configured',
    target: { type: 'sso_provider', id: providerId, label: protocol.issuer },
    details: { protocol: input.protocol, ...protocol.details, domains, defaultRole: input.defaultRole, passwordSignIn: input.passwordSignIn },
  })
  return getSsoSettings(deps, caller)
}

type Protocol = { issuer: string; oidcConfig: string | null; samlConfig: string | null; details: Record<string, unknown> }

/** OpenID Connect: the issuer's discovery document is read first; the client secret is stored encrypted (kept when left empty). */
async function oidcProtocol(deps: AppDeps, fetcher: typeof fetch, input: z.infer<typeof ssoSettingsBody>, storedConfig: string | null | undefined): Promise<Protocol> {
  const stored = storedConfig ? (JSON.parse(storedConfig) as { clientSecret?: string }) : {}
  const secret = input.clientSecret?.trim()
  if (!secret && !stored.clientSecret) throw new AppError('VALIDATION_FAILED', { fields: { clientSecret: 'Client secret is required' } })
  const endpoints = await discoverIssuer(fetcher, input.issuer!)
  const oidcConfig = {
    issuer: endpoints.issuer,
    clientId: input.clientId,
    clientSecret: secret ? await encryptSecret(deps, secret) : stored.clientSecret,
    pkce: true,
    scopes: ['openid', 'email', 'profile'],
    ...endpoints.config,
  }
  return { issuer: endpoints.issuer, oidcConfig: JSON.stringify(oidcConfig), samlConfig: null, details: { clientId: input.clientId, secretChanged: !!secret } }
}

/**
 * SAML 2.0: the identity provider's metadata (or entity ID, sign-in URL and certificate) is read
 * and checked first. Saved without any of them, a SAML provider keeps its identity provider.
 */
async function samlProtocol(
  deps: AppDeps,
  fetcher: typeof fetch,
  input: z.infer<typeof ssoSettingsBody>,
  providerId: string,
  existing: { issuer: string; samlConfig: string | null } | undefined,
): Promise<Protocol> {
  if (!samlInputGiven(input.saml) && existing?.samlConfig) return { issuer: existing.issuer, oidcConfig: null, samlConfig: existing.samlConfig, details: { entityId: existing.issuer } }
  const idp = await readSamlIdentityProvider(fetcher, input.saml ?? {})
  const config = samlPluginConfig(spEntityId(deps, providerId), idp)
  return { issuer: idp.entityId, oidcConfig: null, samlConfig: JSON.stringify(config), details: { entityId: idp.entityId, ssoUrl: idp.ssoUrl } }
}

/** Removes the organisation's provider and frees its domains; members keep their accounts. */
export async function removeSsoSettings(deps: AppDeps, caller: SessionUser, from: AuditFrom) {
  requireAdmin(caller)
  const existing = await deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.organizationId, caller.organizationId) })
  if (!existing) fail('SSO_NOT_CONFIGURED')
  await deps.db.batch([
    deps.db.delete(accounts).where(eq(accounts.providerId, existing.providerId)),
    deps.db.delete(ssoDomains).where(eq(ssoDomains.organizationId, caller.organizationId)),
    deps.db.delete(ssoProviders).where(eq(ssoProviders.id, existing.id)),
  ])
  await recordAudit(deps, caller, from, { action: 'sso.removed', target: { type: 'sso_provider', id: existing.providerId, label: existing.issuer } })
}

/** Cloud: looks for the domain's TXT record and marks the domain proven when it is there. */
export async function verifySsoDomain(deps: AppDeps, caller: SessionUser, domain: string, from: AuditFrom) {
  requireAdmin(caller)
  const row = await deps.db.query.ssoDomains.findFirst({
    where: and(eq(ssoDomains.domain, domain.toLowerCase()), eq(ssoDomains.organizationId, caller.organizationId)),
  })
  if (!row) fail('NOT_FOUND')
  if (!row.verifiedAt) {
    const records = await (deps.resolveTxt?.(`${TXT_RECORD_PREFIX}${row.domain}`) ?? Promise.resolve([])).catch(() => [] as string[][])
    if (!records.some((chunks) => chunks.join('') === txtValue(row.verificationToken))) fail('SSO_DOMAIN_NOT_VERIFIED')
    await deps.db.update(ssoDomains).set({ verifiedAt: new Date() }).where(eq(ssoDomains.domain, row.domain))
    await refreshProviderDomains(deps, caller.organizationId)
    await recordAudit(deps, caller, from, { action: 'sso.domain_verified', target: { type: 'domain', id: row.domain, label: row.domain } })
  }
  return getSsoSettings(deps, caller)
}

/** The plugin signs in only through providers whose domains are proven; it reads them from the provider row. */
async function refreshProviderDomains(deps: AppDeps, organizationId: string) {
  const proven = await deps.db.query.ssoDomains.findMany({
    where: and(eq(ssoDomains.organizationId, organizationId), isNotNull(ssoDomains.verifiedAt)),
  })
  await deps.db
    .update(ssoProviders)
    .set({ domain: proven.map((d) => d.domain).join(','), domainVerified: proven.length > 0 })
    .where(eq(ssoProviders.organizationId, organizationId))
}

/** Whether an address signs in through its organisation's provider, and whether a password still works for it. */
export async function lookupSso(deps: AppDeps, email: string) {
  const provider = await ssoProviderForEmail(deps, email)
  return { sso: provider !== null, passwordSignIn: provider?.passwordSignIn ?? true }
}

/** Starts a sign-in at the provider of the address's domain: the URL to send the browser to, and the state cookie. */
export async function startSsoSignIn(deps: AppDeps, email: string, headers: Headers) {
  const provider = await ssoProviderForEmail(deps, email)
  if (!provider) fail('SSO_NOT_CONFIGURED')
  const result = await deps.auth.api.signInSSO({
    body: { providerId: provider.providerId, email, callbackURL: '/chat', errorCallbackURL: '/login' },
    headers,
    returnHeaders: true,
  })
  // A SAML sign-in is tied to this browser by a cookie holding its RelayState's hash (src/auth/sso.ts).
  const relayState = new URL(result.response.url).searchParams.get('RelayState')
  if (relayState && samlStateCookieUsable(deps.config.baseUrl)) result.headers.append('set-cookie', await samlStateCookie(relayState))
  return { body: { url: result.response.url }, headers: result.headers }
}

/**
 * better-auth's plugin fetches the OpenID provider's token, key and user-info endpoints itself,
 * checking host names only. Right before it does, Kontor's guarded client checks the addresses the
 * names resolve to now (a name that came to point inside the network is refused, unless the
 * operator allowed the host), so the plugin's requests are held to the same rule as every
 * outbound request.
 */
export async function providerEndpointsReachable(deps: AppDeps, providerId: string): Promise<boolean> {
  const row = await deps.db.query.ssoProviders.findFirst({ where: eq(ssoProviders.providerId, providerId), columns: { oidcConfig: true } })
  if (!row?.oidcConfig) return true // the plugin answers an unknown provider itself
  const config = JSON.parse(row.oidcConfig) as { tokenEndpoint?: string; jwksEndpoint?: string; userInfoEndpoint?: string }
  const policy = serverPolicy(deps)
  try {
    for (const url of [config.tokenEndpoint, config.jwksEndpoint, config.userInfoEndpoint]) if (url) await checkOutboundUrl(policy, url)
    return true
  } catch (error) {
    if (error instanceof OutboundError) return false
    throw error
  }
}
