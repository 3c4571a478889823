import type { McpServer as McpServerType } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError } from '../../lib/errors'
import type { Logger } from '../../lib/logger'
import { isAbort } from '../../ai'
import { recordAudit, type AuditFrom } from '../audit/access'
import { fillPromptVariables } from '../prompts/access'
import { MAX_SEARCH_LENGTH } from '../search/schema'
import { askChoices, askKontor, ownPrompts, searchOwnChats, ToolRefusal } from './service'

/** The longest question `ask_kontor` takes (the chat's own limit). */
export const ASK_MAX_LENGTH = 32_000
const DEFAULT_RESULTS = 10

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] })
const refusal = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }], isError: true })

/** Runs a tool; what cannot be done becomes a tool error the client's model reads, never a broken answer. */
async function answer(logger: Logger, signal: AbortSignal, tool: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof ToolRefusal || error instanceof AppError) return refusal(error.message)
    // The client left and the call was ended for it: nobody reads the answer, and nothing failed.
    if (signal.aborted && isAbort(error)) {
      logger.info('the client left before its answer', { tool })
      return refusal('The request was cancelled.')
    }
    logger.error('MCP tool failed', { tool, error })
    return refusal('Kontor could not do this just now. Please try again later.')
  }
}

/** A name for each prompt as MCP clients list it: its title in lower case with dashes, made unique. */
function promptNames(prompts: { id: string; title: string }[]) {
  const taken = new Set<string>()
  return prompts.map((p) => {
    const base = p.title.toLocaleLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').slice(0, 60) || 'prompt'
    let name = base
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`
    taken.add(name)
    return name
  })
}

/**
 * Kontor as an MCP server for one caller (the owner of the API key): tools to search their
 * chats, to ask a model or agent they may use, and their saved prompts as MCP prompts (with the
 * `{{variables}}` as arguments). Built per request: nothing of one caller stays for the next.
 */
export async function kontorMcpServer(
  deps: AppDeps,
  caller: SessionUser,
  context: { logger: Logger; signal: AbortSignal; from: AuditFrom; keyId: string },
): Promise<McpServerType> {
  const { logger, signal } = context
  // Each tool call is in the audit log, like each model call through /v1.
  const audited = async (tool: string, run: () => Promise<CallToolResult>) => {
    await recordAudit(deps, caller, context.from, { action: 'api.called', target: { type: 'api_key', id: context.keyId }, details: { endpoint: '/mcp', tool } })
    return answer(logger, signal, tool, run)
  }
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js')
  const server = new McpServer({ name: 'kontor', version: '1.0.0' }, { instructions: `Kontor workspace of ${caller.name} (${caller.organizationName ?? 'organisation'}).` })
  const [{ models }, prompts] = await Promise.all([askChoices(deps, caller), ownPrompts(deps, caller)])

  server.registerTool(
    'search_chats',
    {
      title: 'Search my chats',
      description: "Searches the titles and messages of the user's Kontor chats (full text, best match first) and returns the matching passages with the chat's id.",
      inputSchema: {
        query: z.string().min(1).max(MAX_SEARCH_LENGTH).describe('Words to find'),
        limit: z.number().int().min(1).max(50).optional().describe(`How many results (default ${DEFAULT_RESULTS})`),
      },
      annotations: { readOnlyHint: true },
    },
    ({ query, limit }) => audited('search_chats', async () => text(await searchOwnChats(deps, caller, query, limit ?? DEFAULT_RESULTS))),
  )

  server.registerTool(
    'ask_kontor',
    {
      title: 'Ask Kontor',
      description:
        "Asks one of the user's permitted models, or an agent the user may use (their own or shared with them: its instructions and model), a question and returns the answer. " +
        `Models: ${models.length ? models.join(', ') : 'none available'}. Without model or agent, the user's default model answers.`,
      inputSchema: {
        message: z.string().min(1).max(ASK_MAX_LENGTH).describe('The question or task'),
        model: z.string().max(200).optional().describe('A model id from the list above'),
        agent: z.string().max(200).optional().describe('The name or id of an agent the user may use'),
      },
    },
    (input) =>
      audited('ask_kontor', async () => {
        if (input.model && input.agent) throw new ToolRefusal('Name a model or an agent, not both.')
        const reply = await askKontor(deps, caller, input, signal)
        return text(reply.text)
      }),
  )

  server.registerTool(
    'list_prompts',
    {
      title: 'My saved prompts',
      description: "Lists the user's saved prompts from Kontor's prompt library with their text; `{{name}}` marks a variable to fill in.",
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () => audited('list_prompts', async () => text(prompts.length ? prompts.map((p) => `## ${p.title}\n${p.content}`).join('\n\n') : 'No saved prompts.')),
  )

  const names = promptNames(prompts)
  prompts.forEach((prompt, i) => {
    const argsSchema = Object.fromEntries(prompt.variables.map((v) => [v, z.string().describe(v)]))
    server.registerPrompt(names[i]!, { title: prompt.title, description: prompt.title, argsSchema }, (args: Record<string, string>) => ({
      messages: [{ role: 'user' as const, content: { type: 'text' as const, text: fillPromptVariables(prompt.content, args) } }],
    }))
  })
  return server
}
