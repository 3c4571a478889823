import { z } from 'zod'

// Messages are i18n keys of the `validation` namespace.
export const emailField = z.string().min(1, 'emailRequired').email('emailInvalid')

export const strongPassword = z
  .string()
  .min(8, 'passwordMin')
  .refine((v) => /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v), 'passwordRule')

export const loginSchema = z.object({ email: emailField, password: z.string().min(1, 'passwordRequired') })
export type LoginValues = z.infer<typeof loginSchema>
