/** better-auth's cookie prefix: its session cookie is `kontor.session_token` (`__Secure-` first over https). */
export const COOKIE_PREFIX = 'kontor'

const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${COOKIE_PREFIX}\\.session_token=[^;]`)

/** Whether a Cookie header carries a session cookie at all; says nothing about whether it is valid. */
export const hasSessionCookie = (cookie: string | null) => !!cookie && SESSION_COOKIE.test(cookie)
