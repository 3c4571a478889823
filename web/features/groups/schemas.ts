import { z } from 'zod/mini'

// Messages are i18n keys of the `validation` namespace; the limit mirrors src/api/groups/schema.ts.
export const groupNameSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'nameRequired'), z.maxLength(60, 'tooLong')),
})
export type GroupNameValues = z.infer<typeof groupNameSchema>
