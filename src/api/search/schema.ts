import { z } from 'zod'
import { MAX_SEARCH_LENGTH, MAX_SEARCH_RESULTS } from './limits'

export * from './limits'

export const searchQuery = z.object({
  /** Words to find in the titles and messages of the caller's chats; each is a plain word (no operators). */
  // Not trimmed: a space after the last word says it is complete (see fts-query.ts).
  q: z
    .string({ error: 'Search text is required' })
    .max(MAX_SEARCH_LENGTH, `Search text must be at most ${MAX_SEARCH_LENGTH} characters`)
    .refine((v) => v.trim().length > 0, 'Search text is required'),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_RESULTS).default(20),
})

/** A piece of a matching passage: the words that matched have `match`; render them as text, never as HTML. */
export const snippetPart = z.object({ text: z.string(), match: z.boolean() })

export const searchResult = z.object({
  threadId: z.string(),
  /** The chat's title (null while it has none). */
  title: z.string().nullable(),
  /** The message that matched; null when the chat's title did. */
  messageId: z.string().nullable(),
  role: z.enum(['user', 'assistant']).nullable(),
  /** When the message was written, or the chat's last activity for a title. */
  at: z.string(),
  /** The passage around the match, its matching words marked. */
  snippet: z.array(snippetPart),
})

/** Best match first. */
export const searchResponse = z.object({ results: z.array(searchResult) })

export type SearchResult = z.infer<typeof searchResult>
export type SnippetPart = z.infer<typeof snippetPart>
