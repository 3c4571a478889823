import { z } from 'zod/mini'
import { SCIM_TOKEN_NAME_MAX } from '../../../src/api/scim/limits'

// Messages are i18n keys; the name's limit is the server's.
export const scimTokenSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'security:scim.validation.nameRequired'), z.maxLength(SCIM_TOKEN_NAME_MAX, 'security:scim.validation.nameTooLong')),
})
export type ScimTokenValues = z.infer<typeof scimTokenSchema>
