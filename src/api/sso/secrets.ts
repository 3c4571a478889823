import { isNotNull } from 'drizzle-orm'
import { ssoProviders } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { encryptSecret, moveToCurrentSecret, readSecret } from '../../lib/secret-box'

type OidcConfig = { clientSecret?: string }

/**
 * Encrypts the client secret of every OpenID provider still under KONTOR_SECRET_PREVIOUS with the
 * current secret (beside the endpoint keys and MCP headers, at start and with the Workers' cron);
 * returns how many it moved. The write only takes when nobody changed the provider meanwhile.
 */
export async function reencryptSsoSecrets(deps: Pick<AppDeps, 'db' | 'config' | 'logger'>): Promise<number> {
  if (!deps.config.previousSecret) return 0
  const rows = (
    await deps.db.select({ id: ssoProviders.id, oidcConfig: ssoProviders.oidcConfig }).from(ssoProviders).where(isNotNull(ssoProviders.oidcConfig))
  ).flatMap((row) => {
    const secret = (JSON.parse(row.oidcConfig!) as OidcConfig).clientSecret
    return secret ? [{ id: row.id, stored: row.oidcConfig!, secret }] : []
  })
  return moveToCurrentSecret(
    deps,
    rows,
    (r) => r.secret,
    async (r) => {
      const clear = await readSecret(deps.config, r.secret)
      const config = JSON.parse(r.stored) as OidcConfig
      config.clientSecret = await encryptSecret(deps, clear)
      await deps.db.$client.execute({
        sql: 'UPDATE sso_providers SET oidc_config = ? WHERE id = ? AND oidc_config = ?',
        args: [JSON.stringify(config), r.id, r.stored],
      })
    },
    'SSO client secrets',
  )
}
