import type { Config } from '../lib/config'
import { COOKIE_PREFIX } from './cookie'

/**
 * better-auth's settings that Kontor's own code needs on every request or mail, kept apart from
 * src/auth/auth.ts so that reading a session does not load better-auth (decision 0078).
 */

export const CONFIRM_EMAIL_TTL_SECONDS = 24 * 60 * 60
export const RESET_PASSWORD_TTL_SECONDS = 60 * 60

/** How long a session lasts, and after how long its use moves the expiry on (better-auth's `session` options). */
export const SESSION_AGES = { expiresIn: 30 * 24 * 60 * 60, updateAge: 24 * 60 * 60 }

/** The session cookie's name as better-auth sets it: `__Secure-` first when Kontor is served over https. */
export const sessionCookieName = (config: Pick<Config, 'baseUrl'>) =>
  `${secureCookies(config) ? '__Secure-' : ''}${COOKIE_PREFIX}.session_token`

export const secureCookies = (config: Pick<Config, 'baseUrl'>) => config.baseUrl.startsWith('https://')
