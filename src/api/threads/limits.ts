// Limits of the contract without zod, so the web can share them without loading zod's full API
// (docs/decisions/0043-smaller-client-bundles.md); schema.ts re-exports them.

/** Longest message a user can send (characters); about 8,000 tokens. */
export const MAX_MESSAGE_LENGTH = 32_000

/** Longest title a user can give a chat (characters); generated titles are shorter. */
export const MAX_TITLE_LENGTH = 200

/** Longest generated title, and the longest title taken from a message (characters). */
export const MAX_GENERATED_TITLE_LENGTH = 50

/** Chats a user can pin: all of them come with the first page of the list. */
export const MAX_PINNED_THREADS = 20

/** Chats deleted in one request. */
export const MAX_THREADS_PER_DELETE = 100

/**
 * A title made from a message (or a model's answer): one line, without surrounding quotes, cut
 * with an ellipsis. The server stores it; the web shows the same at once when a first reply is
 * stopped, before it reads the chat again.
 */
export function titleFromText(text: string) {
  const oneLine = text.replace(/\s+/g, ' ').replace(/^["'«„“]+|["'»“”]+$/g, '').trim()
  return oneLine.length <= MAX_GENERATED_TITLE_LENGTH ? oneLine : `${oneLine.slice(0, MAX_GENERATED_TITLE_LENGTH - 1).trimEnd()}…`
}

/** The title a chat gets from its first message when the model gives none (or the reply was stopped). */
export const titleFromMessage = (message: string) => titleFromText(message) || 'Chat'
