import { describe, expect, test } from 'bun:test'
import { z } from 'zod'
import type { AppDeps, SessionUser } from '../../lib/context'
import { toolDefinition, toolsFor } from './index'
import { cut, MAX_TOOL_OUTPUT, runToolCall } from './run-tool'
import { sendEmailTool } from './send-email'
import { defineTool, ToolError, type ToolContext } from './types'

const warnings: unknown[] = []
const deps = { logger: { warn: (...args: unknown[]) => warnings.push(args) }, config: { search: {} } } as unknown as AppDeps
const noSources = { hasReady: async () => false, search: async () => ({ content: '', passages: [] }), neighbours: async () => ({ content: '', passages: [] }) }
const ctx = (signal = new AbortController().signal): ToolContext => ({ deps, caller: {} as SessionUser, threadId: 'thread-1', sources: noSources, signal })
const call = (name: string, args: unknown) => ({ id: 'call_1', name, arguments: typeof args === 'string' ? args : JSON.stringify(args) })

const echo = defineTool({
  name: 'echo',
  description: 'Repeats the text.',
  parameters: z.object({ text: z.string(), times: z.number().int().min(1).max(3).optional() }),
  run: async ({ text, times }) => ({ content: text.repeat(times ?? 1) }),
})
const broken = defineTool({
  name: 'broken',
  description: 'Fails.',
  parameters: z.object({ how: z.enum(['tool', 'bug']) }),
  run: async ({ how }) => {
    if (how === 'tool') throw new ToolError('The service is down; try later.')
    throw new Error('internal detail: connection string postgres://secret')
  },
})

describe('running a tool call', () => {
  test('an unknown tool: Tool not found, naming the tools there are', async () => {
    const result = await runToolCall(call('launch_rockets', {}), [echo], ctx())
    expect(result).toEqual({
      content: 'Tool not found: there is no tool named "launch_rockets". Available tools: echo.',
      isError: true,
      code: 'TOOL_NOT_FOUND',
    })
  })

  test('arguments that are not JSON, or do not fit, come back as errors the model can correct', async () => {
    const notJson = await runToolCall(call('echo', '{"text": "hi"'), [echo], ctx())
    expect(notJson).toMatchObject({ isError: true, code: 'VALIDATION_FAILED' })
    expect(notJson.content).toMatch(/^The arguments are not valid JSON/)
    const wrong = await runToolCall(call('echo', { text: 5, times: 9 }), [echo], ctx())
    expect(wrong).toMatchObject({ isError: true, code: 'VALIDATION_FAILED' })
    expect(wrong.content).toMatch(/^Invalid arguments \(text: .*; times: .*\)\. Call the tool again with corrected arguments\.$/)
    expect(await runToolCall(call('echo', { text: 'ok', times: 2 }), [echo], ctx())).toEqual({ content: 'okok', isError: false })
    // An empty argument text counts as {} (some models send nothing for tools without parameters).
    expect((await runToolCall(call('echo', ''), [echo], ctx())).content).toMatch(/^Invalid arguments \(text:/)
  })

  test("a tool's own failure reaches the model; an unexpected one is logged and reported without details", async () => {
    expect(await runToolCall(call('broken', { how: 'tool' }), [broken], ctx())).toEqual({ content: 'The service is down; try later.', isError: true })
    const bug = await runToolCall(call('broken', { how: 'bug' }), [broken], ctx())
    expect(bug).toEqual({ content: 'The tool failed unexpectedly. Try again later or answer without it.', isError: true })
    expect(warnings).toHaveLength(1)
  })

  test("the chat's abort is rethrown, not turned into a result", async () => {
    const controller = new AbortController()
    const slow = defineTool({
      name: 'slow',
      description: 'Waits.',
      parameters: z.object({}),
      run: (_, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    })
    const running = runToolCall(call('slow', {}), [slow], ctx(controller.signal))
    controller.abort(new DOMException('stopped', 'AbortError'))
    await expect(running).rejects.toThrow('stopped')
  })

  test('output over 20,000 characters is cut with a note', async () => {
    expect(cut('short')).toBe('short')
    expect(cut('x'.repeat(MAX_TOOL_OUTPUT))).toBe('x'.repeat(MAX_TOOL_OUTPUT))
    const long = cut('y'.repeat(50_000))
    expect(long).toBe(`${'y'.repeat(20_000)}\n\n[Output cut: the tool returned 50,000 characters; only the first 20,000 are shown.]`)
    // Never half an emoji.
    expect(cut(`${'a'.repeat(19_999)}😀${'b'.repeat(10)}`).startsWith(`${'a'.repeat(19_999)}\n`)).toBe(true)
    const result = await runToolCall(call('echo', { text: 'z'.repeat(10_001), times: 3 }), [echo], ctx())
    expect(result.content).toEndWith('[Output cut: the tool returned 30,003 characters; only the first 20,000 are shown.]')
  })
})

describe('the registry', () => {
  test('a tool is offered per chat when its availability says so', async () => {
    const perThread = defineTool({ ...echo, name: 'per_thread', available: ({ threadId }) => threadId === 'thread-1' })
    const never = defineTool({ ...echo, name: 'never', available: async () => false })
    const offered = await toolsFor({ deps, caller: {} as SessionUser, threadId: 'thread-1', sources: noSources }, [echo, perThread, never])
    expect(offered.map((t) => t.name)).toEqual(['echo', 'per_thread'])
    expect((await toolsFor({ deps, caller: {} as SessionUser, threadId: 'other', sources: noSources }, [echo, perThread])).map((t) => t.name)).toEqual(['echo'])
  })

  test('the model sees each tool with its arguments as JSON Schema', () => {
    expect(toolDefinition(echo)).toEqual({
      name: 'echo',
      description: 'Repeats the text.',
      parameters: {
        type: 'object',
        properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1, maximum: 3 } },
        required: ['text'],
      },
    })
  })
})

describe('send_email', () => {
  test('returns the draft for the card and tells the model nothing was sent', async () => {
    const args = { to: 'anna@acme.test; ben@acme.test', subject: ' Offer ', body: 'Dear Anna,\n\n…' }
    const result = await runToolCall(call('send_email', args), [sendEmailTool], ctx())
    expect(result.isError).toBe(false)
    expect(result.data).toEqual({ to: 'anna@acme.test, ben@acme.test', subject: 'Offer', body: 'Dear Anna,\n\n…' })
    expect(result.content).toMatch(/shown to the user as an editable e-mail card. It has NOT been sent/)
  })

  test('a draft without recipient is fine; addresses that are none are refused', async () => {
    expect((await runToolCall(call('send_email', { to: '', subject: 'Hi', body: 'Text' }), [sendEmailTool], ctx())).isError).toBe(false)
    const bad = await runToolCall(call('send_email', { to: 'anna at acme', subject: 'Hi', body: 'Text' }), [sendEmailTool], ctx())
    expect(bad).toMatchObject({ isError: true, code: 'VALIDATION_FAILED' })
    expect(bad.content).toContain('to: must be e-mail addresses separated by commas')
  })
})
