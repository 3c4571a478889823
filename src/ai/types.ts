/** The provider gateway's one vocabulary; adapters translate it to and from each provider's wire format. */

export type JSONSchema = { [key: string]: unknown }

export type ToolCall = {
  id: string
  name: string
  /** The complete argument text, normally a JSON object. Weak models may produce invalid JSON: parse and validate it. */
  arguments: string
}

export type ToolDefinition = { name: string; description: string; parameters: JSONSchema }

/** Whether the model may, must or must not call a tool, or which one it must call. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string }

/** `toolCalls` belongs to assistant messages, `toolCallId` (required there) to tool results. */
export type ChatMessage = {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string
  toolCalls?: ToolCall[]
  toolCallId?: string
  /**
   * Assistant messages in a tool loop: Anthropic refuses to continue a loop with thinking on
   * unless the signed thinking of the previous turn comes back unchanged.
   */
  reasoning?: string
  reasoningSignature?: string
}

export type ReasoningEffort = 'low' | 'medium' | 'high'

export type ChatRequest = {
  model: string
  messages: ChatMessage[]
  tools?: ToolDefinition[]
  toolChoice?: ToolChoice
  temperature?: number
  maxTokens?: number
  /** Up to four sequences that end the reply where they would appear. */
  stop?: string[]
  /** Ask for reasoning where the provider needs asking (Anthropic thinking, OpenAI reasoning effort). */
  reasoning?: ReasoningEffort
  signal?: AbortSignal
  /**
   * Streams only: called once the events parsed from one network chunk of the provider's answer
   * (or from one batch of a large chunk, see FIRST_BATCH in sse.ts) were yielded and taken, so
   * that a relay can send them on together, at once. When it returns a promise, the stream reads
   * on once it settles: a relay that wrote lets its write leave first.
   */
  onChunkEnd?: () => void | Promise<void>
}

/** 'stop': the model finished; a reply that failed throws a ProviderError instead of finishing. */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter'

export type Usage = { inputTokens: number; outputTokens: number }

/**
 * What a streamed reply yields, in order: text and reasoning deltas (never the text so far),
 * tool calls once their arguments are complete, usage when the provider reports it, and one
 * `finish` last.
 */
export type StreamEvent =
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  /** Anthropic only: seals the reasoning streamed so far; pass it back as `reasoningSignature`. */
  | { type: 'reasoning_signature'; signature: string }
  | ({ type: 'tool_call' } & ToolCall)
  | ({ type: 'usage' } & Usage)
  | { type: 'finish'; reason: FinishReason }

export type Completion = {
  text: string
  reasoning: string
  reasoningSignature?: string
  toolCalls: ToolCall[]
  usage?: Usage
  finishReason: FinishReason
}

export type EmbedRequest = { model: string; input: string[]; dimensions?: number; signal?: AbortSignal }
export type Embeddings = { vectors: number[][]; usage?: { inputTokens: number } }

/**
 * A model provider. Every method throws ProviderError (an AppError) for provider failures, and
 * the signal's reason when the caller aborts.
 */
export interface ChatProvider {
  streamChat(req: ChatRequest): AsyncIterable<StreamEvent>
  complete(req: ChatRequest): Promise<Completion>
  embed(req: EmbedRequest): Promise<Embeddings>
  listModels(options?: { signal?: AbortSignal }): Promise<string[]>
}

export type ProviderKind = 'openai' | 'anthropic' | 'mistral' | 'openai-compatible'

export type ProviderConfig = {
  kind: ProviderKind
  apiKey?: string
  /** The provider's API root as its SDK expects it; defaults to the provider's public API. */
  baseUrl?: string
  /** The fetch to use (tests, Workers); defaults to the global fetch. */
  fetch?: typeof fetch
  timeouts?: Partial<Timeouts>
  retry?: Partial<RetryPolicy>
}

export type Timeouts = {
  /** From sending a chat request to its first event. */
  firstTokenMs: number
  /** Between two events of a streamed reply. */
  idleMs: number
  /** A whole non-streamed request: completion, embeddings, model list. */
  requestMs: number
}

export type RetryPolicy = {
  maxRetries: number
  baseDelayMs: number
  /** A Retry-After longer than this is not waited for: the error goes to the caller at once. */
  maxDelayMs: number
}
