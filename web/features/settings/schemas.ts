import { z } from 'zod'
import { strongPassword } from '../../lib/form-fields'

// Messages are i18n keys of the `validation` namespace.
export const nameSchema = z.object({ name: z.string().trim().min(1, 'nameRequired').max(100, 'tooLong') })
export type NameValues = z.infer<typeof nameSchema>

export const passwordSchema = z
  .object({
    currentPassword: z.string().min(1, 'passwordRequired'),
    newPassword: strongPassword,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'passwordsMismatch' })
export type PasswordValues = z.infer<typeof passwordSchema>
