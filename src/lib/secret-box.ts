import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto'

type Secrets = { secret: string; previousSecret?: string | null }

/** A secret as stored: encrypted (XChaCha20-Poly1305) with the instance secret. */
export function encryptSecret(config: Secrets, data: string): Promise<string> {
  return symmetricEncrypt({ key: config.secret, data })
}

/**
 * A stored secret in the clear: with the instance secret, or during a rotation of KONTOR_SECRET
 * with the previous one (KONTOR_SECRET_PREVIOUS). Throws when neither opens it.
 */
export async function decryptSecret(config: Secrets, data: string): Promise<string> {
  try {
    return await symmetricDecrypt({ key: config.secret, data })
  } catch (error) {
    if (!config.previousSecret) throw error
    return symmetricDecrypt({ key: config.previousSecret, data })
  }
}
