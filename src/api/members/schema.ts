import { z } from 'zod'

export const roleSchema = z.enum(['user', 'admin'], 'Role must be user or admin')

export const memberIdParams = z.object({ id: z.string().min(1).max(64) })
export const changeRoleBody = z.object({ role: roleSchema })

export const memberResponse = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  emailVerified: z.boolean(),
  /** Deactivated by the identity provider (SCIM): cannot sign in, holds no seat. */
  deactivated: z.boolean(),
  joinedAt: z.string(),
})
export const memberListResponse = z.array(memberResponse)
export type Member = z.infer<typeof memberResponse>
