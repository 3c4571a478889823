import { eq, sql } from 'drizzle-orm'
import { parse } from 'hono/utils/cookie'
import { flatRows, preparedFor } from '../../db/client'
import { organizations, sessions, users } from '../../db/schema'
import type { AppDeps, SessionUser } from '../lib/context'
import type { Config } from '../lib/config'
import { SESSION_AGES, sessionCookieName } from './settings'
import { hashSessionToken } from './session-token'
import { twoFactorMissing } from './two-factor'

/**
 * The signed-in caller of a request, or null. Every request reads the session from the
 * database (no session data is kept in the cookie or in memory), so a revoked session or a
 * removed member is refused at once.
 *
 * The common case, a valid session that needs no refresh, costs one prepared statement, and the
 * first time a process sees a cookie also its HMAC check (key imported once) and the token's
 * SHA-256 (the table keeps only that; `sessionTokenHashOf`). better-auth's getSession costs several times that
 * per request (its endpoint machinery, a second query for the user, output filtering), so it is
 * left the rare cases: an expired session (which it deletes) and one due for its daily
 * extension. Its rules thus stay the only ones.
 *
 * A session's `updated_at` says when it was last seen (Settings → Account lists it): written at
 * most once per LAST_SEEN_STEP_MS, so a busy session costs one small write every few minutes.
 */
export async function readSessionUser(deps: Pick<AppDeps, 'auth' | 'db' | 'config'>, headers: Headers): Promise<SessionUser | null> {
  const tokenHash = await sessionTokenHashOf(deps, headers)
  if (!tokenHash) return null
  const auth = await authSettings(deps.config)
  const [row] = await sessionByToken(deps.db)({ token: tokenHash })
  if (!row) return null
  const expiresAt = row.expiresAt.getTime()
  const now = Date.now()
  // better-auth's own tests: expired, or last extended more than `updateAge` ago.
  if (expiresAt <= now || expiresAt - auth.expiresInMs + auth.updateAgeMs <= now) {
    const result = await deps.auth.api.getSession({ headers })
    if (!result) return null
    // Extended (or, had it expired, deleted): read again for the columns better-auth does not know.
    const [extended] = await sessionByToken(deps.db)({ token: tokenHash })
    return extended ? toSessionUser(extended) : null
  }
  if (now - row.lastSeenAt.getTime() >= LAST_SEEN_STEP_MS) await touchSession(deps.db).run({ id: row.sessionId, now: now })
  return toSessionUser(row)
}

/** How exactly a session's last use is kept: to five minutes. */
export const LAST_SEEN_STEP_MS = 5 * 60 * 1000

const touchSession = preparedFor((db) =>
  db
    .update(sessions)
    .set({ updatedAt: sql`${sql.placeholder('now')}` })
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare(),
)

/** The SHA-256 of the session token the request's cookie carries (signature checked), or null. */
export async function sessionTokenHashOf(deps: Pick<AppDeps, 'config'>, headers: Headers): Promise<string | null> {
  const cookie = headers.get('cookie')
  if (!cookie) return null
  const auth = await authSettings(deps.config)
  const value = parse(cookie, auth.cookieName)[auth.cookieName]
  if (!value) return null
  const known = auth.checked.get(value)
  if (known) {
    // Used again: it moves to the back, the last to be forgotten.
    auth.checked.delete(value)
    auth.checked.set(value, known)
    return known
  }
  const token = await verifiedToken(value, auth.key)
  if (!token) return null
  const hash = await hashSessionToken(token)
  if (auth.checked.size >= CHECKED_COOKIES) auth.checked.delete(auth.checked.keys().next().value!)
  // A copy: the value may be a slice of the whole Cookie header, which it would keep alive.
  auth.checked.set(JSON.parse(JSON.stringify(value)) as string, hash)
  return hash
}

/**
 * How many signed cookies a process remembers as checked (with their token's hash): the cookies of
 * the sessions in use, so that a request costs the HMAC check and the SHA-256 only once per
 * session, not every time. A value is remembered only once its signature was found right, and a
 * cookie is the same text every time, so the answer is the one the check would give; the session
 * itself is still read from the database at every request. The one used least recently is
 * forgotten first (decision 0100).
 */
const CHECKED_COOKIES = 1000

const sessionByToken = preparedFor((db) =>
  flatRows(
    db
      .select({
        sessionId: sessions.id,
        expiresAt: sessions.expiresAt,
        lastSeenAt: sessions.updatedAt,
        id: users.id,
        name: users.name,
        email: users.email,
        emailVerified: users.emailVerified,
        role: users.role,
        organizationId: users.organizationId,
        locale: users.locale,
        theme: users.theme,
        organizationName: organizations.name,
        twoFactorMissing: twoFactorMissing,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(organizations, eq(organizations.id, users.organizationId))
      .where(eq(sessions.token, sql.placeholder('token')))
      .prepare(),
  ),
)

type AuthSettings = { cookieName: string; key: CryptoKey; expiresInMs: number; updateAgeMs: number; checked: Map<string, string> }
const settings = new WeakMap<Pick<Config, 'secret' | 'baseUrl'>, Promise<AuthSettings>>()

/**
 * better-auth's cookie name, secret and session ages, as the configuration sets them (src/auth/settings.ts;
 * a test holds them to better-auth's own context): reading a session loads no part of better-auth.
 */
function authSettings(config: Pick<Config, 'secret' | 'baseUrl'>): Promise<AuthSettings> {
  let found = settings.get(config)
  if (!found) {
    found = crypto.subtle
      .importKey('raw', new TextEncoder().encode(config.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
      .then((key) => ({
        cookieName: sessionCookieName(config),
        key,
        expiresInMs: SESSION_AGES.expiresIn * 1000,
        updateAgeMs: SESSION_AGES.updateAge * 1000,
        checked: new Map(),
      }))
    settings.set(config, found)
  }
  return found
}

/** better-auth's signed cookie: `token.base64(HMAC-SHA256(secret, token))`. */
async function verifiedToken(value: string | undefined, key: CryptoKey): Promise<string | null> {
  const dot = value ? value.lastIndexOf('.') : -1
  if (!value || dot < 1) return null
  const token = value.slice(0, dot)
  const signature = value.slice(dot + 1)
  if (signature.length !== 44 || !signature.endsWith('=')) return null
  try {
    const bytes = Uint8Array.from(atob(signature), (ch) => ch.charCodeAt(0))
    return (await crypto.subtle.verify('HMAC', key, bytes, new TextEncoder().encode(token))) ? token : null
  } catch {
    return null // not base64
  }
}

type UserColumns = {
  id: string
  name: string
  email: string
  emailVerified: boolean
  role: string
  organizationId: string
  locale: string
  theme?: string | null
  organizationName?: string
  twoFactorMissing?: number | boolean
}

/** A user row as services see the caller; null for a row without a valid role. */
export function toSessionUser(u: UserColumns): SessionUser | null {
  if (u.role !== 'user' && u.role !== 'admin') return null // no role: treated as not found (spec 2)
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    emailVerified: u.emailVerified,
    role: u.role,
    organizationId: u.organizationId,
    locale: u.locale === 'en' ? 'en' : 'de',
    theme: u.theme === 'light' || u.theme === 'dark' ? u.theme : null,
    ...(u.organizationName !== undefined && { organizationName: u.organizationName }),
    ...(u.twoFactorMissing ? { twoFactorMissing: true } : {}),
  }
}

/**
 * The member a sign-in waits on for their second factor: better-auth's signed `two_factor`
 * cookie names a verification row that holds the member's id. Null without a valid, unexpired one.
 */
export async function pendingTwoFactorUserId(deps: Pick<AppDeps, 'auth' | 'config'>, headers: Headers): Promise<string | null> {
  const cookie = headers.get('cookie')
  if (!cookie) return null
  const ctx = await deps.auth.$context
  const name = ctx.createAuthCookie('two_factor').name
  const identifier = await verifiedToken(parse(cookie, name)[name], (await authSettings(deps.config)).key)
  if (!identifier) return null
  const row = await ctx.internalAdapter.findVerificationValue(identifier)
  return row && row.expiresAt > new Date() ? row.value : null
}
