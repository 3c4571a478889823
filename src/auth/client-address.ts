/**
 * The header through which Kontor tells better-auth the caller's address (the socket's, or the
 * one a trusted proxy forwarded: src/lib/respond.ts clientIp). better-auth reads only this header
 * for the address it stores with a session (advanced.ipAddress in src/auth/auth.ts), so an
 * address a browser claims in its own headers never reaches the sessions list.
 */
export const CLIENT_ADDRESS_HEADER = 'x-kontor-client-address'

/** A copy of the request's headers whose address header is Kontor's, replacing any the browser sent. */
export function withClientAddress(headers: Headers, address: string): Headers {
  const copy = new Headers(headers)
  copy.set(CLIENT_ADDRESS_HEADER, address)
  return copy
}
