import { twoFactors } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { encryptSecret, moveToCurrentSecret, readSecret } from '../../lib/secret-box'

/**
 * Encrypts every authenticator app's TOTP secret and recovery codes still under
 * KONTOR_SECRET_PREVIOUS with the current secret (beside the endpoint keys, MCP headers and SSO
 * secrets, at start and with the Workers' cron); returns how many apps it moved. better-auth reads
 * them with the current secret only, so until they are moved their members could not finish a
 * sign-in. The write only takes when the app did not change meanwhile.
 */
export async function reencryptTwoFactorSecrets(deps: Pick<AppDeps, 'db' | 'config' | 'logger'>): Promise<number> {
  if (!deps.config.previousSecret) return 0
  const rows = await deps.db.select({ id: twoFactors.id, secret: twoFactors.secret, backupCodes: twoFactors.backupCodes }).from(twoFactors)
  return moveToCurrentSecret(
    deps,
    rows,
    (row) => row.secret,
    async (row) => {
      const secret = await encryptSecret(deps, await readSecret(deps.config, row.secret))
      const backupCodes = await encryptSecret(deps, await readSecret(deps.config, row.backupCodes))
      await deps.db.$client.execute({
        sql: 'UPDATE two_factors SET secret = ?, backup_codes = ? WHERE id = ? AND secret = ? AND backup_codes = ?',
        args: [secret, backupCodes, row.id, row.secret, row.backupCodes],
      })
    },
    'two-factor secrets',
  )
}
