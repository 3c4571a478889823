import { z } from 'zod'
import { emailSchema, localeSchema, nameSchema, passwordSchema, themeSchema } from '../auth/schema'

const token = z.string().min(1, 'Token is required').max(4096)

export const confirmEmailBody = z.object({ token })
export const resendConfirmationBody = z.object({ email: emailSchema })
export const forgotPasswordBody = z.object({ email: emailSchema })
export const resetPasswordBody = z.object({ token, password: passwordSchema })
export const changeNameBody = z.object({ name: nameSchema })
export const changePasswordBody = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(256),
  newPassword: passwordSchema,
})
export const changeLocaleBody = z.object({ locale: localeSchema })
export const changeThemeBody = z.object({ theme: themeSchema })
export const okResponse = z.object({ ok: z.literal(true) })
