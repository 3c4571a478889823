import { z } from 'zod/mini'
import { strongPassword } from '../../lib/form-fields'

// Messages are i18n keys of the `validation` namespace.
export const nameSchema = z.object({ name: z.string().check(z.trim(), z.minLength(1, 'nameRequired'), z.maxLength(100, 'tooLong')) })
export type NameValues = z.infer<typeof nameSchema>

export const passwordSchema = z
  .object({
    currentPassword: z.string().check(z.minLength(1, 'passwordRequired')),
    newPassword: strongPassword,
    confirmPassword: z.string(),
  })
  .check(z.refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'passwordsMismatch' }))
export type PasswordValues = z.infer<typeof passwordSchema>

export const organizationNameSchema = z.object({ name: z.string().check(z.trim(), z.minLength(1, 'organizationRequired'), z.maxLength(100, 'tooLong')) })
export type OrganizationNameValues = z.infer<typeof organizationNameSchema>
