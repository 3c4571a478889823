import { z } from 'zod/mini'
import { PROMPT_CONTENT_MAX, PROMPT_TITLE_MAX } from '../../../src/api/prompts/limits'

// Messages are i18n keys (with their namespace); limits are the server's, so a form the client
// accepts is one the server accepts.
export const promptSchema = z.object({
  title: z.string().check(z.trim(), z.minLength(1, 'prompts:validation.titleRequired'), z.maxLength(PROMPT_TITLE_MAX, 'prompts:validation.titleTooLong')),
  content: z.string().check(
    z.maxLength(PROMPT_CONTENT_MAX, 'prompts:validation.contentTooLong'),
    z.refine((v) => v.trim().length > 0, 'prompts:validation.contentRequired'),
  ),
})
export type PromptValues = z.infer<typeof promptSchema>

/** One value per `{{variable}}`, in the order of the prompt's variables. */
export const variablesSchema = z.object({ values: z.array(z.object({ value: z.string().check(z.trim(), z.minLength(1, 'prompts:variables.required')) })) })
export type VariablesValues = z.infer<typeof variablesSchema>

/** The server's English field messages (VALIDATION_FAILED `fields`), as the form's keys. */
const SERVER_FIELD_MESSAGES: Record<string, string> = {
  'Title is required': 'prompts:validation.titleRequired',
  [`Title must be at most ${PROMPT_TITLE_MAX} characters`]: 'prompts:validation.titleTooLong',
  'Content is required': 'prompts:validation.contentRequired',
  [`Content must be at most ${PROMPT_CONTENT_MAX} characters`]: 'prompts:validation.contentTooLong',
}

export const promptFieldKey = (message: string) => SERVER_FIELD_MESSAGES[message] ?? 'invalid'
