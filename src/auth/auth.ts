import { apiKey } from '@better-auth/api-key'
import { betterAuth } from 'better-auth/minimal'
import { eq } from 'drizzle-orm'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import type { Database } from '../../db/client'
import { accounts, apiKeys, passkeys, sessions, ssoProviders, twoFactors, users, verifications } from '../../db/schema'
import type { Config } from '../lib/config'
import type { Logger } from '../lib/logger'
import type { Mailer } from '../lib/ports'
import { renderMail, type Locale } from '../mail/templates'
import { API_KEY_NAME_MAX } from '../api/api-keys/limits'
import { COOKIE_PREFIX } from './cookie'
import { CONFIRM_EMAIL_TTL_SECONDS, RESET_PASSWORD_TTL_SECONDS, SESSION_AGES, secureCookies } from './settings'
import { CLIENT_ADDRESS_HEADER } from './client-address'
import { withHashedSessionTokens } from './session-token'
import { twoFactorPlugins } from './second-factor-plugins'
import { auditSso, refuseSsoOfOtherOrganization, ssoNewMember, undoSsoMemberBeyondSeats, ssoPlugin, trustedIdentityOrigins, withDecryptedSsoSecrets } from './sso'

/** What every Kontor API key starts with (so that secret scanners and people recognise one). */
export const API_KEY_PREFIX = 'kontor_'

/**
 * better-auth owns password hashing, sessions (HttpOnly cookies), confirmation and reset
 * tokens. Its own HTTP handler is not mounted: Kontor's routes call `auth.api.*` so that
 * organisation rules, rate limits and the error model apply to every entry point.
 */
export function createAuth(deps: { db: Database; config: Config; mailer: Mailer; logger: Logger }) {
  const { db, config, mailer, logger } = deps
  const secure = secureCookies(config)
  return betterAuth({
    appName: 'Kontor',
    baseURL: config.baseUrl,
    basePath: '/api/auth',
    secret: config.secret,
    telemetry: { enabled: false },
    logger: {
      level: 'error',
      // A refused API key is the caller's mistake, not the server's: noted, not logged as an error.
      log: (level, message, ...args) =>
        logger[/^Failed to validate API key/.test(message) ? 'info' : level](`better-auth: ${message}`, { args }),
    },
    // The sessions table keeps a hash of each token, never the token (src/auth/session-token.ts).
    // Identity providers' client secrets are stored encrypted (src/auth/sso.ts).
    database: withDecryptedSsoSecrets(
      withHashedSessionTokens(
        drizzleAdapter(db, {
          provider: 'sqlite',
          schema: { user: users, session: sessions, account: accounts, verification: verifications, apikey: apiKeys, ssoProvider: ssoProviders, twoFactor: twoFactors, passkey: passkeys },
        }),
      ),
      config,
    ),
    // Identity providers on hosts the operator allowed may be internal (src/auth/sso.ts).
    trustedOrigins: trustedIdentityOrigins(config),
    databaseHooks: {
      user: {
        create: {
          // Members are created by Kontor's services, or by an SSO callback: then in the provider's organisation.
          before: async (user, ctx) => {
            const joining = await ssoNewMember(deps, ctx, user.email)
            if (joining) return { data: { ...user, name: user.name || user.email.split('@')[0], ...joining } }
            return (user as { organizationId?: string }).organizationId ? undefined : false
          },
          after: async (user, ctx) => {
            await undoSsoMemberBeyondSeats(deps, ctx, user as typeof user & { organizationId?: string })
            await auditSso(deps, ctx, user.id, 'member.created_by_sso')
          },
        },
      },
      // An SSO account is linked only to a member of the provider's organisation (src/auth/sso.ts).
      account: { create: { before: async (account, ctx) => refuseSsoOfOtherOrganization(deps, ctx, account.userId) } },
      session: {
        create: {
          // A member deactivated by SCIM gets no session, whichever way they sign in; through SSO, only in the provider's organisation.
          before: async (session, ctx) => {
            const user = await db.query.users.findFirst({ where: eq(users.id, session.userId), columns: { deactivatedAt: true } })
            if (user?.deactivatedAt) return false
            await refuseSsoOfOtherOrganization(deps, ctx, session.userId)
          },
          after: async (session, ctx) => auditSso(deps, ctx, session.userId, 'sign_in.sso'),
        },
      },
    },
    user: {
      additionalFields: {
        // The empty default lets better-auth's OAuth path build a user; the create hook below fills it or refuses.
        organizationId: { type: 'string', required: true, defaultValue: '', input: false },
        role: { type: 'string', required: true, defaultValue: 'user', input: false },
        locale: { type: 'string', required: true, defaultValue: 'de', input: false },
        theme: { type: 'string', required: false, input: false },
      },
    },
    session: SESSION_AGES,
    // Password reset tokens are kept as their SHA-256 too (better-auth's own option).
    verification: { storeIdentifier: 'hashed' },
    emailAndPassword: {
      enabled: true,
      // Accounts are created by the register and invite services, inside one transaction.
      disableSignUp: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      requireEmailVerification: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_PASSWORD_TTL_SECONDS,
      sendResetPassword: async ({ user, token }) => {
        const u = user as typeof user & { locale: Locale }
        const url = `${config.baseUrl}/password/reset?token=${encodeURIComponent(token)}`
        await mailer.send(renderMail('resetPassword', u.locale, { to: u.email, name: u.name, url }))
      },
    },
    // Confirmation mails are sent by the users service (rate limited, with delivery errors surfaced).
    emailVerification: { expiresIn: CONFIRM_EMAIL_TTL_SECONDS },
    rateLimit: { enabled: false },
    // A callback better-auth cannot tie to a sign-in it started (a forged or swapped state) goes
    // back to the sign-in page with the code, like every other failed sign-in: Kontor serves no
    // better-auth error page.
    onAPIError: { errorURL: '/login' },
    plugins: [
      // Personal API keys: the plugin makes and hashes them and checks them (expiry, revocation,
      // last use). Listing, revoking and rate limits are Kontor's (src/api/api-keys, src/api/openai).
      apiKey({
        defaultPrefix: API_KEY_PREFIX,
        maximumNameLength: API_KEY_NAME_MAX,
        // `kontor_` and four characters of the key: enough to tell keys apart in a list.
        startingCharactersConfig: { charactersLength: API_KEY_PREFIX.length + 4 },
        rateLimit: { enabled: false },
        keyExpiration: { minExpiresIn: 1, maxExpiresIn: 365 },
      }),
      ssoPlugin(),
      // Authenticator apps with recovery codes, and passkeys (src/auth/two-factor.ts).
      ...twoFactorPlugins(config),
    ],
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: secure,
      database: { generateId: () => crypto.randomUUID() },
      // The address kept with a session is the one Kontor determined, never one the browser claims.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
  })
}

export type Auth = ReturnType<typeof createAuth>

declare module '../lib/context' {
  interface AppServices {
    auth: Auth
  }
}
