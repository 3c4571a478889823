import type { ChatProvider } from '../../ai'
import { MAX_GENERATED_TITLE_LENGTH, titleFromMessage, titleFromText } from '../threads/schema'

/**
 * A short title for a new chat, in the language of its first exchange. When the model cannot
 * give one, the start of the user's message serves.
 */
export async function generateTitle(provider: ChatProvider, model: string, exchange: { user: string; assistant: string }, signal?: AbortSignal) {
  try {
    const result = await provider.complete({
      model,
      maxTokens: 30,
      messages: [
        {
          role: 'system',
          content: `Write a title of at most ${MAX_GENERATED_TITLE_LENGTH} characters for this conversation, in the language the user wrote in. Reply with the title only, without quotes.`,
        },
        { role: 'user', content: `User: ${exchange.user.slice(0, 2000)}\n\nAssistant: ${exchange.assistant.slice(0, 2000)}` },
      ],
      // At most 15 s, and no longer than the reply runs (a Stop ends it: the title then comes from the message).
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(15_000)]) : AbortSignal.timeout(15_000),
    })
    const title = titleFromText(result.text)
    if (title) return title
  } catch {
    // A title is a nicety; the reply itself already succeeded.
  }
  return titleFromMessage(exchange.user)
}
