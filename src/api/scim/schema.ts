import { z } from 'zod'
import { SCIM_TOKEN_NAME_MAX } from './limits'

export const createScimTokenBody = z.object({
  name: z.string('Name is required').trim().min(1, 'Name is required').max(SCIM_TOKEN_NAME_MAX, `Name must be at most ${SCIM_TOKEN_NAME_MAX} characters`),
})

export const scimTokenResponse = z.object({
  id: z.string(),
  name: z.string(),
  /** The first characters of the token, to tell tokens apart. */
  start: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
})
export type ScimTokenView = z.infer<typeof scimTokenResponse>

/** The answer to creating a token: the only time the token itself is shown. */
export const createdScimTokenResponse = scimTokenResponse.extend({ token: z.string(), endpoint: z.string() })

export const scimTokenParams = z.object({ id: z.string() })
