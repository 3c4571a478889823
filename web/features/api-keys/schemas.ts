import { z } from 'zod/mini'
import { API_KEY_NAME_MAX } from '../../../src/api/api-keys/limits'

/** The expiries offered, in days; `never`: the key does not expire. */
export const EXPIRY_CHOICES = ['never', '7', '30', '90', '365'] as const

// Messages are i18n keys; the name's limit is the server's.
export const createApiKeySchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'apiKeys:validation.nameRequired'), z.maxLength(API_KEY_NAME_MAX, 'apiKeys:validation.nameTooLong')),
  expiry: z.enum(EXPIRY_CHOICES),
})
export type CreateApiKeyValues = z.infer<typeof createApiKeySchema>
