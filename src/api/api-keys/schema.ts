import { z } from 'zod'
import { API_KEY_EXPIRY_DAYS_MAX, API_KEY_NAME_MAX } from './limits'

export const createApiKeyBody = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(API_KEY_NAME_MAX, `Name must be at most ${API_KEY_NAME_MAX} characters`),
  /** Days until the key stops working; null or absent: it does not expire. */
  expiresInDays: z
    .number({ error: 'Expiry must be a number of days' })
    .int('Expiry must be a whole number of days')
    .min(1, 'Expiry must be at least 1 day')
    .max(API_KEY_EXPIRY_DAYS_MAX, `Expiry must be at most ${API_KEY_EXPIRY_DAYS_MAX} days`)
    .nullish(),
})

export const listApiKeysQuery = z.object({
  /** `organization`: every key of the organisation (admins only); default: the caller's own. */
  scope: z.enum(['own', 'organization']).default('own'),
})
export const apiKeyIdParams = z.object({ id: z.string().min(1).max(64) })

export const apiKeyResponse = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the key, to tell keys apart; the key itself is never shown again. */
  start: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  owner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
})
export type ApiKeyView = z.infer<typeof apiKeyResponse>

/** The answer to creating a key: the only time `key` is sent. */
export const createdApiKeyResponse = apiKeyResponse.extend({ key: z.string() })

export const apiSettingsBody = z.object({ apiAccess: z.boolean({ error: 'apiAccess must be true or false' }) })
export const apiSettingsResponse = z.object({
  /** Whether members' API keys work for this organisation. */
  apiAccess: z.boolean(),
})
