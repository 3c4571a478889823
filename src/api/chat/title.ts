import type { ChatProvider } from '../../ai'

export const MAX_TITLE_LENGTH = 50

const clip = (text: string) => {
  const oneLine = text.replace(/\s+/g, ' ').replace(/^["'«„“]+|["'»“”]+$/g, '').trim()
  return oneLine.length <= MAX_TITLE_LENGTH ? oneLine : `${oneLine.slice(0, MAX_TITLE_LENGTH - 1).trimEnd()}…`
}

/**
 * A short title for a new chat, in the language of its first exchange. When the model cannot
 * give one, the start of the user's message serves.
 */
export async function generateTitle(provider: ChatProvider, model: string, exchange: { user: string; assistant: string }) {
  try {
    const result = await provider.complete({
      model,
      maxTokens: 30,
      messages: [
        {
          role: 'system',
          content: `Write a title of at most ${MAX_TITLE_LENGTH} characters for this conversation, in the language the user wrote in. Reply with the title only, without quotes.`,
        },
        { role: 'user', content: `User: ${exchange.user.slice(0, 2000)}\n\nAssistant: ${exchange.assistant.slice(0, 2000)}` },
      ],
      signal: AbortSignal.timeout(15_000),
    })
    const title = clip(result.text)
    if (title) return title
  } catch {
    // A title is a nicety; the reply itself already succeeded.
  }
  return clip(exchange.user) || 'Chat'
}
