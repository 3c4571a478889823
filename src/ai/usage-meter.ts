import type { ChatMessage, ChatProvider, ChatRequest, StreamEvent } from './types'

/** One model call's usage as the meter reports it. */
export type MeteredCall = {
  model: string
  kind: 'chat' | 'completion' | 'embedding'
  inputTokens: number
  outputTokens: number
  /** The provider sent no usage: the tokens are estimated from the text (about 4 characters a token). */
  estimated: boolean
}

/** A rough token count for text a provider reported no usage for. */
export const estimateTokens = (chars: number) => Math.ceil(chars / 4)

const inputChars = (messages: ChatMessage[]) =>
  messages.reduce((n, m) => n + m.content.length + (m.toolCalls?.reduce((k, c) => k + c.name.length + c.arguments.length, 0) ?? 0), 0)

/**
 * Reports the usage of every call made through `provider`: the provider's own numbers, else an
 * estimate. A streamed reply that stops or breaks off after its first event is reported with
 * what it used so far (the provider charges for it); a call that failed before any answer is not.
 * `record` is awaited and must not throw (a lost usage row must not fail the reply).
 */
export function withUsageMeter(provider: ChatProvider, record: (call: MeteredCall) => Promise<void>): ChatProvider {
  async function* streamChat(req: ChatRequest): AsyncGenerator<StreamEvent> {
    let usage: { inputTokens: number; outputTokens: number } | undefined
    let outputChars = 0
    let answered = false
    try {
      for await (const e of provider.streamChat(req)) {
        answered = true
        if (e.type === 'usage') usage = { inputTokens: e.inputTokens, outputTokens: e.outputTokens }
        else if (e.type === 'text' || e.type === 'reasoning') outputChars += e.delta.length
        else if (e.type === 'tool_call') outputChars += e.name.length + e.arguments.length
        yield e
      }
    } finally {
      if (usage) await record({ model: req.model, kind: 'chat', ...usage, estimated: false })
      else if (answered)
        await record({ model: req.model, kind: 'chat', inputTokens: estimateTokens(inputChars(req.messages)), outputTokens: estimateTokens(outputChars), estimated: true })
    }
  }

  return {
    streamChat,
    async complete(req) {
      const result = await provider.complete(req)
      const output = result.text.length + result.reasoning.length + result.toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0)
      await record(
        result.usage
          ? { model: req.model, kind: 'completion', ...result.usage, estimated: false }
          : { model: req.model, kind: 'completion', inputTokens: estimateTokens(inputChars(req.messages)), outputTokens: estimateTokens(output), estimated: true },
      )
      return result
    },
    async embed(req) {
      const result = await provider.embed(req)
      const estimated = result.usage === undefined
      const inputTokens = result.usage?.inputTokens ?? estimateTokens(req.input.reduce((n, t) => n + t.length, 0))
      await record({ model: req.model, kind: 'embedding', inputTokens, outputTokens: 0, estimated })
      return result
    },
    listModels: (options) => provider.listModels(options),
  }
}
