import type { AppDeps } from './context'

// better-auth's cipher loads with the first secret read or written, not at start (decision 0078).
const crypto = () => import('better-auth/crypto')
const symmetricEncrypt = async (input: { key: string; data: string }) => (await crypto()).symmetricEncrypt(input)
const symmetricDecrypt = async (input: { key: string; data: string }) => (await crypto()).symmetricDecrypt(input)

/** A secret as stored: encrypted (XChaCha20-Poly1305) with the instance secret (KONTOR_SECRET). */
export function encryptSecret(deps: Pick<AppDeps, 'config'>, data: string) {
  return symmetricEncrypt({ key: deps.config.secret, data })
}

/**
 * A stored secret in the clear. During a rotation of KONTOR_SECRET, one still encrypted with the
 * previous secret (KONTOR_SECRET_PREVIOUS) is read with it and handed to `storeAgain`, encrypted
 * with the current one, so that the caller writes it back.
 */
export async function decryptSecret(
  deps: Pick<AppDeps, 'config' | 'logger'>,
  stored: { id: string; encrypted: string },
  storeAgain: (encrypted: string) => Promise<unknown>,
): Promise<string> {
  try {
    return await symmetricDecrypt({ key: deps.config.secret, data: stored.encrypted })
  } catch (error) {
    const previous = deps.config.previousSecret
    if (!previous) {
      deps.logger.error('a stored secret cannot be decrypted: was KONTOR_SECRET changed without KONTOR_SECRET_PREVIOUS?', { id: stored.id })
      throw error
    }
    const clear = await symmetricDecrypt({ key: previous, data: stored.encrypted })
    await storeAgain(await encryptSecret(deps, clear))
    return clear
  }
}

/**
 * Reads every stored secret that the current secret cannot (so `read`, through decryptSecret,
 * stores it again under the current one); returns how many moved. `what` names them in the log.
 */
export async function moveToCurrentSecret<R extends { id: string }>(
  deps: Pick<AppDeps, 'config' | 'logger'>,
  rows: R[],
  encryptedOf: (row: R) => string,
  read: (row: R) => Promise<unknown>,
  what: string,
): Promise<number> {
  let moved = 0
  for (const row of rows) {
    if (await underCurrentSecret(deps, encryptedOf(row))) continue
    try {
      await read(row)
      moved++
    } catch (error) {
      deps.logger.error(`${what} can be decrypted with neither KONTOR_SECRET nor KONTOR_SECRET_PREVIOUS`, { id: row.id, error })
    }
  }
  if (moved) deps.logger.info(`${what} encrypted again with the current secret`, { count: moved })
  return moved
}

async function underCurrentSecret(deps: Pick<AppDeps, 'config'>, encrypted: string) {
  try {
    await symmetricDecrypt({ key: deps.config.secret, data: encrypted })
    return true
  } catch {
    return false
  }
}

/**
 * A stored secret in the clear, with the current secret or, during a rotation, the previous one,
 * without storing it again: better-auth reads identity providers' client secrets through its
 * database adapter (src/auth/sso.ts), where nothing can be written back.
 */
export async function readSecret(config: Pick<AppDeps['config'], 'secret' | 'previousSecret'>, data: string): Promise<string> {
  try {
    return await symmetricDecrypt({ key: config.secret, data })
  } catch (error) {
    if (!config.previousSecret) throw error
    return symmetricDecrypt({ key: config.previousSecret, data })
  }
}
