import { z } from 'zod'
import { readOnlySharingBody, readOnlySharingFields } from '../groups/schema'
import { PROMPT_CONTENT_MAX, PROMPT_TITLE_MAX } from './limits'

export { PROMPT_CONTENT_MAX, PROMPT_TITLE_MAX } from './limits'

// A missing field reads as an empty one.
const title = z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(PROMPT_TITLE_MAX, `Title must be at most ${PROMPT_TITLE_MAX} characters`)
const content = z
  .string({ error: 'Content is required' })
  .max(PROMPT_CONTENT_MAX, `Content must be at most ${PROMPT_CONTENT_MAX} characters`)
  .refine((v) => v.trim().length > 0, 'Content is required')

export const promptBody = z.object({ title, content })
export const promptIdParams = z.object({ id: z.string().min(1).max(64) })
export const listPromptsQuery = z.object({ search: z.string().trim().max(200).optional() })

export const promptSharingBody = readOnlySharingBody

export const promptResponse = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  /** Names of `{{variables}}` in the content, in order of first use. */
  variables: z.array(z.string()),
  ...readOnlySharingFields,
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type PromptView = z.infer<typeof promptResponse>
