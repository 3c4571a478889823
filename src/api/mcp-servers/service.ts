import { and, asc, eq, inArray } from 'drizzle-orm'
import type { z } from 'zod'
import { mcpServers, mcpToolAgents, mcpToolGroups, mcpTools } from '../../../db/schema'
import { listMcpTools, McpError } from '../../ai/mcp'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import { checkOutboundUrl, OutboundError } from '../../lib/outbound'
import { encryptSecret } from '../../lib/secret-box'
import { agentIdsOfOrganization, agentsOfOrganization } from '../agents/access'
import { recordAudit, type AuditFrom } from '../audit/access'
import { groupsOfOrganization } from '../groups/access'
import { mcpPolicy, serverAddress } from './access'
import type { McpServer, McpToolAccess, mcpServerBody, mcpToolAccessBody } from './schema'

type ServerRow = typeof mcpServers.$inferSelect
type ToolRow = typeof mcpTools.$inferSelect

async function accessOf(deps: AppDeps, tools: ToolRow[]): Promise<Map<string, McpToolAccess>> {
  const ids = tools.map((t) => t.id)
  const [groups, agents] = ids.length
    ? await Promise.all([
        deps.db.select().from(mcpToolGroups).where(inArray(mcpToolGroups.toolId, ids)),
        deps.db.select().from(mcpToolAgents).where(inArray(mcpToolAgents.toolId, ids)),
      ])
    : [[], []]
  return new Map(
    tools.map((t) => [
      t.id,
      { scope: t.scope, groupIds: groups.filter((g) => g.toolId === t.id).map((g) => g.groupId), agentIds: agents.filter((a) => a.toolId === t.id).map((a) => a.agentId) },
    ]),
  )
}

async function serverViews(deps: AppDeps, servers: ServerRow[]): Promise<McpServer[]> {
  const tools = servers.length ? await deps.db.select().from(mcpTools).where(inArray(mcpTools.serverId, servers.map((s) => s.id))).orderBy(asc(mcpTools.name)) : []
  const access = await accessOf(deps, tools)
  return servers.map((s) => ({
    id: s.id,
    name: s.name,
    url: s.url,
    headerNames: s.headerNames,
    tools: tools.filter((t) => t.serverId === s.id).map((t) => ({ name: t.name, description: t.description, ...access.get(t.id)! })),
    createdAt: s.createdAt.toISOString(),
  }))
}

async function findServer(deps: AppDeps, caller: SessionUser, id: string) {
  const row = await deps.db.query.mcpServers.findFirst({ where: and(eq(mcpServers.id, id), eq(mcpServers.organizationId, caller.organizationId)) })
  return row ?? fail('MCP_SERVER_NOT_FOUND')
}

/** The organisation's MCP servers with their enabled tools, by name. */
export async function listServers(deps: AppDeps, caller: SessionUser) {
  requireAdmin(caller)
  const rows = await deps.db.select().from(mcpServers).where(eq(mcpServers.organizationId, caller.organizationId)).orderBy(asc(mcpServers.name))
  return serverViews(deps, rows)
}

/**
 * Adds a remote MCP server. Its headers (a bearer token becomes `Authorization`) are stored
 * encrypted with the instance secret and never sent back; the address must be public (checked
 * after DNS, and again for every exchange) unless the operator allowed its host.
 */
export async function addServer(deps: AppDeps, caller: SessionUser, input: z.infer<typeof mcpServerBody>, from: AuditFrom) {
  requireAdmin(caller)
  const url = new URL(input.url)
  if (url.username || url.password) fail('INVALID_MCP_SERVER_URL', { fields: { url: 'Put credentials in the token or header fields' } })
  await checkOutboundUrl(mcpPolicy(deps), url.href).catch((error: unknown) => {
    if (!(error instanceof OutboundError)) throw error
    fail('INVALID_MCP_SERVER_URL', { fields: { url: error.reason === 'host-not-found' ? 'The host name could not be found' : 'Private addresses are not allowed' } })
  })
  const headers: Record<string, string> = {}
  for (const h of input.headers ?? []) headers[h.name.toLowerCase()] = h.value
  if (input.bearerToken) headers.authorization = `Bearer ${input.bearerToken}`
  const names = Object.keys(headers)
  const [row] = await deps.db
    .insert(mcpServers)
    .values({
      id: crypto.randomUUID(),
      organizationId: caller.organizationId,
      name: input.name,
      url: url.href,
      headersEncrypted: names.length ? await encryptSecret(deps, JSON.stringify(headers)) : null,
      headerNames: names,
    })
    .onConflictDoNothing()
    .returning()
  if (!row) throw new AppError('MCP_SERVER_NAME_TAKEN', { fields: { name: 'An MCP server with this name already exists' } })
  await recordAudit(deps, caller, from, { action: 'mcp_server.added', target: { type: 'mcp_server', id: row.id, label: row.name }, details: { url: row.url, headers: names } })
  return (await serverViews(deps, [row]))[0]!
}

/** Removes a server with its enabled tools (chats stop offering them at once). */
export async function removeServer(deps: AppDeps, caller: SessionUser, id: string, from: AuditFrom) {
  requireAdmin(caller)
  const [removed] = await deps.db
    .delete(mcpServers)
    .where(and(eq(mcpServers.id, id), eq(mcpServers.organizationId, caller.organizationId)))
    .returning()
  if (!removed) fail('MCP_SERVER_NOT_FOUND')
  await recordAudit(deps, caller, from, { action: 'mcp_server.removed', target: { type: 'mcp_server', id, label: removed.name }, details: { url: removed.url } })
}

/** What the server offers now (asked afresh), each marked with its access when enabled. */
async function listedTools(deps: AppDeps, server: ServerRow) {
  try {
    return await listMcpTools(await serverAddress(deps, server), mcpPolicy(deps))
  } catch (error) {
    if (!(error instanceof McpError)) throw error
    deps.logger.info('an MCP server could not list its tools', { serverId: server.id, reason: error.reason })
    throw new AppError('MCP_SERVER_UNREACHABLE', { message: `${new AppError('MCP_SERVER_UNREACHABLE').message} ${error.message}` })
  }
}

export async function serverTools(deps: AppDeps, caller: SessionUser, id: string) {
  requireAdmin(caller)
  const server = await findServer(deps, caller, id)
  const [listed, enabled] = await Promise.all([listedTools(deps, server), deps.db.select().from(mcpTools).where(eq(mcpTools.serverId, server.id))])
  const access = await accessOf(deps, enabled)
  return listed.map((t) => {
    const row = enabled.find((e) => e.name === t.name)
    return { name: t.name, description: t.description, enabled: Boolean(row), access: row ? access.get(row.id)! : null }
  })
}

/**
 * Enables a tool of the server (or changes who gets it): for everyone, the members of chosen
 * groups, or chats with chosen agents. Its description and schema are taken from the server's
 * listing now, so the server must answer; enabling again refreshes them.
 */
export async function enableTool(deps: AppDeps, caller: SessionUser, id: string, name: string, input: z.infer<typeof mcpToolAccessBody>, from: AuditFrom) {
  requireAdmin(caller)
  const server = await findServer(deps, caller, id)
  const groupIds = input.scope === 'groups' ? (await groupsOfOrganization(deps, caller.organizationId, input.groupIds)).map((g) => g.id) : []
  const agentIds = input.scope === 'agents' ? await agentIdsOfOrganization(deps, caller.organizationId, input.agentIds) : []
  const tool = (await listedTools(deps, server)).find((t) => t.name === name) ?? fail('MCP_TOOL_NOT_FOUND')
  const toolId = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(mcpTools)
      .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, serverId: server.id, name, description: tool.description, inputSchema: tool.inputSchema, scope: input.scope })
      .onConflictDoUpdate({ target: [mcpTools.serverId, mcpTools.name], set: { description: tool.description, inputSchema: tool.inputSchema, scope: input.scope } })
      .returning({ id: mcpTools.id })
    await tx.delete(mcpToolGroups).where(eq(mcpToolGroups.toolId, row!.id))
    await tx.delete(mcpToolAgents).where(eq(mcpToolAgents.toolId, row!.id))
    if (groupIds.length) await tx.insert(mcpToolGroups).values(groupIds.map((groupId) => ({ toolId: row!.id, groupId })))
    if (agentIds.length) await tx.insert(mcpToolAgents).values(agentIds.map((agentId) => ({ toolId: row!.id, agentId })))
    return row!.id
  })
  const access = { scope: input.scope, groupIds, agentIds }
  await recordAudit(deps, caller, from, { action: 'mcp_tool.enabled', target: { type: 'mcp_tool', id: toolId, label: `${server.name}: ${name}` }, details: access })
  return { name, description: tool.description, enabled: true, access }
}

/** Disables a tool: no chat offers it any more. */
export async function disableTool(deps: AppDeps, caller: SessionUser, id: string, name: string, from: AuditFrom) {
  requireAdmin(caller)
  const server = await findServer(deps, caller, id)
  const [removed] = await deps.db
    .delete(mcpTools)
    .where(and(eq(mcpTools.serverId, server.id), eq(mcpTools.name, name)))
    .returning({ id: mcpTools.id })
  if (!removed) fail('MCP_TOOL_NOT_FOUND')
  await recordAudit(deps, caller, from, { action: 'mcp_tool.disabled', target: { type: 'mcp_tool', id: removed.id, label: `${server.name}: ${name}` } })
}

/** The organisation's agents an admin may give a tool to. */
export async function agentChoices(deps: AppDeps, caller: SessionUser) {
  requireAdmin(caller)
  return agentsOfOrganization(deps, caller.organizationId)
}
