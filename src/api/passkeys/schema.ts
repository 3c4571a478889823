import { z } from 'zod'

export const passkeyName = z.string().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters')
/** What the browser's WebAuthn call answered (`navigator.credentials`), as @simplewebauthn/browser encodes it. */
export const webAuthnResponse = z.object({ id: z.string().min(1).max(1024), rawId: z.string().max(1024), type: z.literal('public-key') }).passthrough()

export const addPasskeyBody = z.object({ name: passkeyName, response: webAuthnResponse })
export const renamePasskeyBody = z.object({ name: passkeyName })
export const passkeyParams = z.object({ id: z.string().min(1).max(100) })

export const passkeyView = z.object({
  id: z.string(),
  name: z.string().nullable(),
  /** `multiDevice`: synced by a password manager or the platform; `singleDevice`: bound to one authenticator. */
  deviceType: z.string(),
  backedUp: z.boolean(),
  createdAt: z.string().nullable(),
})
export type PasskeyView = z.infer<typeof passkeyView>

/** The WebAuthn options the browser passes to `navigator.credentials` (the challenge among them). */
export const webAuthnOptions = z.record(z.string(), z.unknown())
