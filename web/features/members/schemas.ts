import { z } from 'zod/mini'
import { emailField, strongPassword } from '../../lib/form-fields'

// Messages are i18n keys of the `validation` namespace (spec section 5 for the invite dialog).
export const inviteSchema = z.object({
  email: emailField,
  // No role is preselected: the admin decides consciously who may manage the organisation.
  role: z.enum(['user', 'admin'], 'roleRequired'),
  locale: z.enum(['en', 'de']),
})
export type InviteFormInput = z.input<typeof inviteSchema>
export type InviteValues = z.output<typeof inviteSchema>

export const acceptInviteSchema = z
  .object({
    name: z.string().check(z.trim(), z.minLength(1, 'nameRequired'), z.maxLength(100, 'tooLong')),
    password: strongPassword,
    passwordConfirmation: z.string(),
  })
  .check(z.refine((v) => v.password === v.passwordConfirmation, { path: ['passwordConfirmation'], message: 'passwordsMismatch' }))
export type AcceptInviteValues = z.infer<typeof acceptInviteSchema>
