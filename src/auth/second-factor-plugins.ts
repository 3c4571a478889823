import { passkey } from '@better-auth/passkey'
import { APIError } from 'better-auth/api'
import { twoFactor } from 'better-auth/plugins/two-factor'
import type { Config } from '../lib/config'

/** The name authenticator apps show next to a Kontor code. */
export const TOTP_ISSUER = 'Kontor'

/**
 * Second factors are better-auth's own plugins: TOTP with recovery codes (two-factor; its
 * e-mail codes stay off) and passkeys. A passkey is bound to Kontor's public address (its host is
 * the relying party, its origin the only one accepted), so passkeys survive a restart and answer
 * no other site. A passkey signs in on its own, so the authenticator must have checked the person
 * (PIN or biometrics): an assertion without user verification is refused.
 * docs/decisions/0070-two-factors.md.
 */
export function twoFactorPlugins(config: Config) {
  const publicUrl = new URL(config.baseUrl)
  return [
    twoFactor({ issuer: TOTP_ISSUER }),
    passkey({
      rpID: publicUrl.hostname,
      rpName: 'Kontor',
      origin: publicUrl.origin,
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      authentication: {
        afterVerification: ({ verification }) => {
          if (!verification.authenticationInfo.userVerified) throw new APIError('UNAUTHORIZED', { code: 'USER_NOT_VERIFIED', message: 'The passkey did not check the person.' })
        },
      },
    }),
  ] as const
}
