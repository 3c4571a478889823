import { z } from 'zod'

/**
 * The OpenAI-compatible API's wire format (/v1): the requests as OpenAI's API takes them and the
 * answers as its clients read them. Fields Kontor does not use (user, seed, top_p, …) are
 * accepted and ignored, as clients send them freely.
 */

const textPart = z.object({ type: z.literal('text', { error: 'Only text content parts are supported' }), text: z.string() })
const content = z.union([z.string(), z.array(textPart)], { error: 'must be a string or an array of text parts' })

const toolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function').default('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
})

const message = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.enum(['system', 'developer']), content, name: z.string().optional() }),
    z.object({ role: z.literal('user'), content, name: z.string().optional() }),
    z.object({ role: z.literal('assistant'), content: content.nullish(), tool_calls: z.array(toolCall).optional(), name: z.string().optional() }),
    z.object({ role: z.literal('tool'), content, tool_call_id: z.string({ error: 'tool_call_id is required' }).min(1) }),
  ],
  { error: "must have a role of 'system', 'developer', 'user', 'assistant' or 'tool'" },
)
export type OpenAiMessage = z.infer<typeof message>

const tool = z.object({
  type: z.literal('function', { error: "Only tools of type 'function' are supported" }),
  function: z.object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, underscores or dashes'),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
})

const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }),
])

const maxTokens = z.number().int('must be an integer').min(1, 'must be at least 1').nullish()

export const chatCompletionBody = z
  .object({
    model: z.string({ error: 'you must provide a model parameter' }).min(1, 'you must provide a model parameter'),
    messages: z.array(message, { error: 'must be an array of messages' }).min(1, 'must contain at least one message'),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
    tools: z.array(tool).max(128, 'at most 128 tools').optional(),
    tool_choice: toolChoice.optional(),
    temperature: z.number().min(0, 'must be between 0 and 2').max(2, 'must be between 0 and 2').nullish(),
    max_tokens: maxTokens,
    max_completion_tokens: maxTokens,
    stop: z.union([z.string(), z.array(z.string()).max(4, 'at most 4 stop sequences')]).nullish(),
    n: z.literal(1, { error: 'only n=1 is supported' }).nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.tool_choice && body.tool_choice !== 'none' && !body.tools?.length) {
      ctx.addIssue({ code: 'custom', path: ['tool_choice'], message: 'tool_choice is only allowed when tools are specified' })
    }
    if (body.stream_options && !body.stream) {
      ctx.addIssue({ code: 'custom', path: ['stream_options'], message: 'stream_options is only allowed when stream is true' })
    }
  })
export type ChatCompletionBody = z.infer<typeof chatCompletionBody>

export const embeddingsBody = z.object({
  model: z.string({ error: 'you must provide a model parameter' }).min(1, 'you must provide a model parameter'),
  input: z.union([z.string().min(1, 'must not be empty'), z.array(z.string().min(1, 'must not be empty')).min(1).max(2048, 'at most 2048 inputs')], {
    error: 'must be a string or an array of strings',
  }),
  encoding_format: z.enum(['float', 'base64']).optional(),
  dimensions: z.number().int().min(1).optional(),
})

export const modelParams = z.object({ model: z.string() })

const usage = z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() })
const toolCallOut = z.object({ id: z.string(), type: z.literal('function'), function: z.object({ name: z.string(), arguments: z.string() }) })
const finishReason = z.enum(['stop', 'length', 'tool_calls', 'content_filter'])

export const modelObject = z.object({ id: z.string(), object: z.literal('model'), created: z.number(), owned_by: z.string() })
export const modelList = z.object({ object: z.literal('list'), data: z.array(modelObject) })

export const chatCompletionResponse = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number(),
      message: z.object({ role: z.literal('assistant'), content: z.string().nullable(), refusal: z.null(), tool_calls: z.array(toolCallOut).optional() }),
      logprobs: z.null(),
      finish_reason: finishReason,
    }),
  ),
  usage: usage.optional(),
  system_fingerprint: z.null(),
})

export const embeddingsResponse = z.object({
  object: z.literal('list'),
  data: z.array(z.object({ object: z.literal('embedding'), index: z.number(), embedding: z.union([z.array(z.number()), z.string()]) })),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.number(), total_tokens: z.number() }),
})

/** OpenAI's error answer. */
export const openAiErrorBody = z.object({
  error: z.object({ message: z.string(), type: z.string(), code: z.string().nullable(), param: z.string().nullable() }),
})
