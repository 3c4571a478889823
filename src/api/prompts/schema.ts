import { z } from 'zod'
import { PROMPT_CONTENT_MAX, PROMPT_GROUPS_MAX, PROMPT_TITLE_MAX } from './limits'

export { PROMPT_CONTENT_MAX, PROMPT_GROUPS_MAX, PROMPT_TITLE_MAX } from './limits'

// A missing field reads as an empty one.
const title = z.string({ error: 'Title is required' }).trim().min(1, 'Title is required').max(PROMPT_TITLE_MAX, `Title must be at most ${PROMPT_TITLE_MAX} characters`)
const content = z
  .string({ error: 'Content is required' })
  .max(PROMPT_CONTENT_MAX, `Content must be at most ${PROMPT_CONTENT_MAX} characters`)
  .refine((v) => v.trim().length > 0, 'Content is required')

export const promptBody = z.object({ title, content })
export const promptIdParams = z.object({ id: z.string().min(1).max(64) })
export const listPromptsQuery = z.object({ search: z.string().trim().max(200).optional() })

/** Who the prompt is shared with (read-only for them), replacing what was. Nothing shared: private. */
export const promptSharingBody = z.object({
  organization: z.boolean({ error: 'Say whether the organisation sees the prompt' }),
  groupIds: z
    .array(z.string().min(1).max(64))
    .max(PROMPT_GROUPS_MAX, `At most ${PROMPT_GROUPS_MAX} groups`)
    .refine((list) => new Set(list).size === list.length, 'Each group once'),
})

export const promptResponse = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  /** Names of `{{variables}}` in the content, in order of first use. */
  variables: z.array(z.string()),
  /** True for the caller's own prompts; others are shared with the caller and read-only. */
  mine: z.boolean(),
  owner: z.object({ id: z.string(), name: z.string() }),
  sharedWithOrganization: z.boolean(),
  /** The groups it is shared with (shown to its owner only; empty for others). */
  groups: z.array(z.object({ id: z.string(), name: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type PromptView = z.infer<typeof promptResponse>
