import { COOKIE_PREFIX } from './cookie'

/**
 * What Kontor's SSO routes need of a sign-in without loading better-auth's SSO plugin (src/auth/sso.ts):
 * the header for the audit entries and the SAML state cookie.
 */

/** Headers Kontor's callback route sets (replacing any the browser sent) for the audit entries of a sign-in. */
export const SSO_REQUEST_ID_HEADER = 'x-kontor-request-id'

/**
 * The cookie that ties a SAML response to the browser that started the sign-in: the SHA-256 of
 * the sign-in's RelayState. The plugin keeps the RelayState on the server only, so without it a
 * response someone kept from their own sign-in could be posted in another person's browser and
 * sign them in as that someone (login forgery). The identity provider posts from its own site, so
 * the cookie is `SameSite=None`, which browsers accept only on secure origins (https, localhost).
 */
export const SAML_STATE_COOKIE = `${COOKIE_PREFIX}.saml_state`
const SAML_STATE_PATH = '/api/auth/sso/saml2/sp/acs/'

const sha256Hex = async (text: string) =>
  [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))].map((b) => b.toString(16).padStart(2, '0')).join('')

/** Whether browsers keep a `SameSite=None; Secure` cookie for this base URL. */
export const samlStateCookieUsable = (baseUrl: string) => {
  const url = new URL(baseUrl)
  return url.protocol === 'https:' || url.hostname === 'localhost' || url.hostname === '127.0.0.1'
}

/** The Set-Cookie line for a SAML sign-in that starts with `relayState` (ten minutes, like the state itself). */
export async function samlStateCookie(relayState: string) {
  return `${SAML_STATE_COOKIE}=${await sha256Hex(relayState)}; Path=${SAML_STATE_PATH}; Max-Age=600; HttpOnly; Secure; SameSite=None`
}

/** The Set-Cookie line that removes the state cookie once a response came back. */
export const clearSamlStateCookie = () => `${SAML_STATE_COOKIE}=; Path=${SAML_STATE_PATH}; Max-Age=0; HttpOnly; Secure; SameSite=None`

/** Whether a SAML response's RelayState is the one this browser's sign-in started with. */
export async function samlStateMatches(cookieHeader: string | null, relayState: string | null) {
  const held = cookieHeader?.match(new RegExp(`(?:^|;\\s*)${SAML_STATE_COOKIE.replace('.', '\\.')}=([0-9a-f]{64})`))?.[1]
  return !!held && !!relayState && held === (await sha256Hex(relayState))
}
