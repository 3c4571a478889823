import { and, eq, or, sql } from 'drizzle-orm'
import { z } from 'zod'
import { preparedFor } from '../../../db/client'
import { groupMembers, mcpServers, mcpToolAgents, mcpToolGroups, mcpTools } from '../../../db/schema'
import { callMcpTool, McpError, readMcpResult, type McpServerAddress } from '../../ai/mcp'
import { ToolError, type Tool } from '../../ai/tools/types'
import type { AppDeps, SessionUser } from '../../lib/context'
import { serverPolicy } from '../../lib/outbound'
import { decryptSecret } from '../../lib/secret-box'
import { mcpToolChatName } from './schema'

type ServerRow = Pick<typeof mcpServers.$inferSelect, 'id' | 'url' | 'headersEncrypted'>

/** A server's address with its headers in the clear (a rotation of KONTOR_SECRET stores them again under the current secret). */
export async function serverAddress(deps: AppDeps, server: ServerRow): Promise<McpServerAddress> {
  if (!server.headersEncrypted) return { url: server.url, headers: {} }
  const stored = server.headersEncrypted
  const json = await decryptSecret(deps, { id: server.id, encrypted: stored }, (headersEncrypted) =>
    deps.db.update(mcpServers).set({ headersEncrypted }).where(and(eq(mcpServers.id, server.id), eq(mcpServers.headersEncrypted, stored))),
  )
  return { url: server.url, headers: JSON.parse(json) as Record<string, string> }
}

/** MCP servers are addresses an admin supplied: the guard of KONTOR_FETCH_ALLOWED_HOSTS applies, as for the web tool. */
export const mcpPolicy = (deps: AppDeps) => serverPolicy(deps)

const anyArguments = z.record(z.string(), z.unknown())

/** The tools enabled for a member (and the chat's agent: none when `agentId` is null), read before every reply starts: prepared once. */
const enabledTools = preparedFor((db) => {
  const inGroup = sql`exists (select 1 from ${mcpToolGroups} inner join ${groupMembers} on ${groupMembers.groupId} = ${mcpToolGroups.groupId}
    where ${mcpToolGroups.toolId} = ${mcpTools.id} and ${groupMembers.userId} = ${sql.placeholder('userId')})`
  // `agent_id = NULL` holds for no row: a chat without an agent gets no agent's tools.
  const forAgent = sql`exists (select 1 from ${mcpToolAgents} where ${mcpToolAgents.toolId} = ${mcpTools.id} and ${mcpToolAgents.agentId} = ${sql.placeholder('agentId')})`
  return db
    .select({
      name: mcpTools.name,
      description: mcpTools.description,
      inputSchema: mcpTools.inputSchema,
      server: { id: mcpServers.id, name: mcpServers.name, url: mcpServers.url, headersEncrypted: mcpServers.headersEncrypted },
    })
    .from(mcpTools)
    .innerJoin(mcpServers, eq(mcpServers.id, mcpTools.serverId))
    .where(
      and(
        eq(mcpTools.organizationId, sql.placeholder('organizationId')),
        or(eq(mcpTools.scope, 'everyone'), and(eq(mcpTools.scope, 'groups'), inGroup), and(eq(mcpTools.scope, 'agents'), forAgent)),
      ),
    )
    .orderBy(mcpServers.name, mcpTools.name)
    .prepare()
})

/**
 * The MCP tools enabled for this chat: for everyone, for a group the caller is in, or for the
 * chat's agent. Each is offered with the description and schema the server listed when it was
 * enabled; a call connects to the server then (see src/ai/mcp.ts), and a server that is down,
 * slow or answers garbage gives a failed tool result, never a failed reply.
 */
export async function mcpToolsFor(deps: AppDeps, caller: SessionUser, agentId: string | null): Promise<Tool[]> {
  const rows = await enabledTools(deps.db).all({ organizationId: caller.organizationId, userId: caller.id, agentId })
  const used = new Set<string>()
  return rows.map((row): Tool => {
    let name = mcpToolChatName(row.server.name, row.name)
    for (let n = 2; used.has(name); n++) name = `${name.slice(0, 60)}-${n}`
    used.add(name)
    return {
      name,
      description: `${row.description || row.name} (tool "${row.name}" of the MCP server "${row.server.name}")`.slice(0, 2000),
      parameters: anyArguments,
      jsonSchema: { type: 'object', ...row.inputSchema },
      run: async (args, { signal }) => {
        try {
          const result = await callMcpTool(await serverAddress(deps, row.server), mcpPolicy(deps), row.name, args, signal)
          const { content, data } = readMcpResult(result, { server: row.server.name, tool: row.name })
          if (result.isError) throw new ToolError(`The tool reported an error: ${content}`)
          return { content, data }
        } catch (error) {
          if (error instanceof McpError) throw new ToolError(error.message)
          throw error
        }
      },
    }
  })
}
