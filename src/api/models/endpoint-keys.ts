import { and, eq, isNotNull } from 'drizzle-orm'
import { modelEndpoints } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { decryptSecret, encryptSecret, moveToCurrentSecret } from '../../lib/secret-box'

type Deps = Pick<AppDeps, 'config' | 'db' | 'logger'>
type StoredKey = { id: string; apiKeyEncrypted: string }

/** An endpoint's API key as stored: encrypted (XChaCha20-Poly1305) with the instance secret. */
export function encryptEndpointKey(deps: Pick<AppDeps, 'config'>, apiKey: string) {
  return encryptSecret(deps, apiKey)
}

/**
 * An endpoint's API key in the clear. During a rotation of KONTOR_SECRET, a key still encrypted
 * with the previous secret (KONTOR_SECRET_PREVIOUS) is read with it and stored again encrypted
 * with the current one.
 */
export async function decryptEndpointKey(deps: Deps, endpoint: StoredKey): Promise<string> {
  // Only if nobody changed it meanwhile (another process re-encrypting it, an admin replacing it).
  return decryptSecret(deps, { id: endpoint.id, encrypted: endpoint.apiKeyEncrypted }, (apiKeyEncrypted) =>
    deps.db
      .update(modelEndpoints)
      .set({ apiKeyEncrypted })
      .where(and(eq(modelEndpoints.id, endpoint.id), eq(modelEndpoints.apiKeyEncrypted, endpoint.apiKeyEncrypted))),
  )
}

/**
 * Encrypts every endpoint key still under the previous secret with the current one, so that
 * KONTOR_SECRET_PREVIOUS can be removed after one run. Runs at start (and with the Workers' cron)
 * while KONTOR_SECRET_PREVIOUS is set; returns how many keys it moved.
 */
export async function reencryptEndpointKeys(deps: Deps): Promise<number> {
  if (!deps.config.previousSecret) return 0
  const rows = await deps.db
    .select({ id: modelEndpoints.id, apiKeyEncrypted: modelEndpoints.apiKeyEncrypted })
    .from(modelEndpoints)
    .where(isNotNull(modelEndpoints.apiKeyEncrypted))
  return moveToCurrentSecret(deps, rows as StoredKey[], (r) => r.apiKeyEncrypted, (r) => decryptEndpointKey(deps, r), 'endpoint keys')
}
