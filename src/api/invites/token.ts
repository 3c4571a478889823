import { sha256Hex } from '../../lib/sha256'

/** A random invitation token (256 bits, base64url) and the SHA-256 we store instead of it. */
export function newInviteToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export const hashInviteToken = (token: string): Promise<string> => sha256Hex(token)
