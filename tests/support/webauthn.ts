import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto'

/** A few lines of CBOR (RFC 8949): what an authenticator's answers are made of. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) =>
    n < 24 ? Buffer.from([(major << 5) | n]) : n < 256 ? Buffer.from([(major << 5) | 24, n]) : Buffer.from([(major << 5) | 25, n >> 8, n & 255])
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)])
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value])
  const entries = value instanceof Map ? [...value] : Object.entries(value as object)
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])])
}

const b64url = (bytes: Buffer) => bytes.toString('base64url')
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest()

/**
 * A software passkey (ES256, no attestation), answering WebAuthn challenges as a browser with a
 * platform authenticator would: registration and authentication responses in the JSON form
 * @simplewebauthn/browser sends.
 */
export function softwarePasskey(origin: string) {
  const rpId = new URL(origin).hostname
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const credentialId = randomBytes(16)
  let counter = 0
  const jwk = publicKey.export({ format: 'jwk' })
  const coseKey = new Map<number, unknown>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ])
  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }))
  const authData = (flags: number, extra: Buffer = Buffer.alloc(0)) => {
    const count = Buffer.alloc(4)
    count.writeUInt32BE(counter)
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, extra])
  }

  return {
    id: b64url(credentialId),
    /** The answer to registration options (`navigator.credentials.create`). */
    register(options: { challenge: string }) {
      const idLength = Buffer.alloc(2)
      idLength.writeUInt16BE(credentialId.length)
      // User present, user verified, attested credential data follows.
      const data = authData(0x45, Buffer.concat([Buffer.alloc(16), idLength, credentialId, cbor(coseKey)]))
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: { clientDataJSON: b64url(clientData('webauthn.create', options.challenge)), attestationObject: b64url(cbor({ fmt: 'none', attStmt: {}, authData: data })), transports: ['internal'] },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      }
    },
    /** The answer to authentication options (`navigator.credentials.get`). */
    authenticate(options: { challenge: string }, key: KeyObject = privateKey, { userVerified = true } = {}) {
      counter++
      // User present, and (unless told otherwise) user verified.
      const data = authData(userVerified ? 0x05 : 0x01)
      const client = clientData('webauthn.get', options.challenge)
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: { clientDataJSON: b64url(client), authenticatorData: b64url(data), signature: b64url(sign('sha256', Buffer.concat([data, sha256(client)]), key)) },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      }
    },
  }
}
