import { z } from 'zod'
import { emailSchema, localeSchema, nameSchema, passwordSchema } from '../auth/schema'
import { roleSchema } from '../members/schema'

export const inviteStatus = z.enum(['pending', 'accepted', 'rejected', 'expired'])

export const createInviteBody = z.object({
  email: emailSchema,
  role: roleSchema,
  /** Language of the invitation mail; the invitee's, as far as the admin knows it. */
  locale: localeSchema.optional(),
})

export const inviteIdParams = z.object({ id: z.string().min(1).max(64) })
export const inviteTokenQuery = z.object({ token: z.string().min(1, 'Token is required').max(256) })

export const acceptInviteBody = z
  .object({
    token: z.string().min(1, 'Token is required').max(256),
    name: nameSchema,
    password: passwordSchema,
    passwordConfirmation: z.string().max(128),
  })
  .refine((b) => b.password === b.passwordConfirmation, {
    path: ['passwordConfirmation'],
    message: 'Passwords do not match',
  })

export const inviteResponse = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  status: inviteStatus,
  sentAt: z.string(),
  expiresAt: z.string(),
  /** Only when the invitation could not be mailed (no SMTP, or delivery failed): the link to pass on. */
  acceptUrl: z.string().optional(),
  mailSent: z.boolean().optional(),
})
export const inviteListResponse = z.array(inviteResponse)

export const invitePreviewResponse = z.object({
  email: z.string(),
  role: roleSchema,
  organizationName: z.string(),
  expiresAt: z.string(),
})

export type InviteView = z.infer<typeof inviteResponse>
