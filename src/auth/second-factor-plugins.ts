import { passkey } from '@better-auth/passkey'
import { twoFactor } from 'better-auth/plugins/two-factor'
import type { Config } from '../lib/config'

/** The name authenticator apps show next to a Kontor code. */
export const TOTP_ISSUER = 'Kontor'

/**
 * Second factors are better-auth's own plugins: TOTP with recovery codes (two-factor; its
 * e-mail codes stay off) and passkeys. A passkey is bound to Kontor's public address (its host is
 * the relying party, its origin the only one accepted), so passkeys survive a restart and answer
 * no other site. docs/decisions/0070-two-factors.md.
 */
export function twoFactorPlugins(config: Config) {
  const publicUrl = new URL(config.baseUrl)
  return [
    twoFactor({ issuer: TOTP_ISSUER }),
    passkey({ rpID: publicUrl.hostname, rpName: 'Kontor', origin: publicUrl.origin }),
  ] as const
}
