import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { flatRows, preparedFor } from '../../../db/client'
import { agentGroups, agents, mcpServers, mcpToolAgents, mcpTools, modelEndpoints, modelSettings, permittedModels, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError } from '../../lib/errors'
import { languageModels, openToUser, providerPermitted, usableModel, usableModelColumns, usableModelJoins } from '../models/access'
import { groupsOfOrganization, shareGroupsJson, shareGroupsOf } from '../groups/access'
import type { readOnlySharingBody } from '../groups/schema'
import { agentShareLink, agentsReadableBy, findAgent } from './access'
import { AGENT_TOOLS } from './limits'
import { checkReadable, collectionIdsOfAgent, describeCollections, readableCollectionsOfAgentJson, readableOf, setAgentCollections } from '../knowledge/access'
import type { AttachedCollection } from '../knowledge/schema'
import type { PermittedModel } from '../models/schema'
import type { agentBody, AgentView } from './schema'

type AgentRow = typeof agents.$inferSelect

const viewColumns = {
  id: agents.id,
  name: agents.name,
  instructions: agents.instructions,
  modelId: agents.modelId,
  tools: agents.tools,
  userId: agents.userId,
  sharedWithOrganization: agents.sharedWithOrganization,
  createdAt: agents.createdAt,
  updatedAt: agents.updatedAt,
}

type McpToolOfAgent = { agentId: string; server: string; tool: string }
/** Who an agent belongs to and, for its owner, the groups it is shared with. */
type Sharing = { caller: SessionUser; ownerNames: Map<string, string>; groups: Array<{ itemId: string; id: string; name: string }> }

const toView = (a: Pick<AgentRow, keyof typeof viewColumns>, usable: PermittedModel[], collections: AttachedCollection[], mcp: McpToolOfAgent[], sharing: Sharing): AgentView => {
  const model = usable.find((m) => m.id === a.modelId) ?? null
  const mine = a.userId === sharing.caller.id
  return {
    id: a.id,
    mine,
    owner: { id: a.userId, name: sharing.ownerNames.get(a.userId) ?? '' },
    sharedWithOrganization: a.sharedWithOrganization,
    groups: mine ? sharing.groups.filter((g) => g.itemId === a.id).map(({ id, name }) => ({ id, name })) : [],
    name: a.name,
    instructions: a.instructions,
    modelId: a.modelId,
    model,
    available: model !== null,
    collections,
    tools: chosenTools(a.tools),
    mcpTools: mcp.filter((m) => m.agentId === a.id).map(({ server, tool }) => ({ server, tool })),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  }
}

/** The given tools once each, in the order the model sees them. */
const chosenTools = (tools: readonly string[]) => AGENT_TOOLS.filter((name) => tools.includes(name))

/** The model must be one the organisation permits for chats, named as a field error otherwise. */
async function checkModel(deps: AppDeps, caller: SessionUser, modelId: string) {
  const usable = await languageModels(deps, caller)
  if (!usable.some((m) => m.id === modelId)) throw new AppError('MODEL_NOT_FOUND', { fields: { modelId: 'Choose a model your organisation permits' } })
  return usable
}

// The outer row's id in the correlated subqueries, always with its table (see knowledge/access.ts).
const outerAgentId = sql`${sql.identifier('agents')}.${sql.identifier('id')}`
const userId = sql.placeholder('userId')
const organizationId = sql.placeholder('organizationId')

/**
 * The list in one statement: the agent's model comes joined, decided by the models' own rule
 * (`usableModel`); its share groups (for its owner), the collections the caller may read and its
 * MCP tools come as JSON arrays from subqueries.
 */
const readableAgents = preparedFor((db) =>
  flatRows(
    db
      .select({
        ...viewColumns,
        ...usableModelColumns,
        ownerName: users.name,
        groups: shareGroupsJson(agentShareLink, outerAgentId, agents.userId, userId),
        collections: readableCollectionsOfAgentJson(outerAgentId, userId, organizationId),
        mcpTools: sql<string>`(select json_group_array(json_object('server', t.server, 'tool', t.tool)) from (
            select ${mcpServers.name} as server, ${mcpTools.name} as tool from ${mcpToolAgents}
            join ${mcpTools} on ${mcpTools.id} = ${mcpToolAgents.toolId} join ${mcpServers} on ${mcpServers.id} = ${mcpTools.serverId}
            where ${mcpToolAgents.agentId} = ${outerAgentId} and ${mcpTools.organizationId} = ${organizationId} and ${mcpTools.scope} = 'agents'
            order by ${mcpServers.name}, ${mcpTools.name}) t)`,
      })
      .from(agents)
      .innerJoin(users, eq(users.id, agents.userId))
      .leftJoin(
        permittedModels,
        and(eq(permittedModels.id, agents.modelId), eq(permittedModels.organizationId, organizationId), providerPermitted, openToUser),
      )
      .leftJoin(modelEndpoints, usableModelJoins.endpoint)
      .leftJoin(modelSettings, usableModelJoins.settings)
      .where(agentsReadableBy(userId, organizationId))
      .orderBy(desc(agents.createdAt))
      .prepare(),
  ),
)

/** The agent's collections the caller may (still) read. */
async function collectionsOf(deps: AppDeps, caller: SessionUser, agentId: string) {
  return describeCollections(deps, await readableOf(deps, caller.id, caller.organizationId, await collectionIdsOfAgent(deps, agentId)))
}

/**
 * The MCP tools an admin enabled for chats with these agents (scope "agents"), by server and tool
 * name; read here, as the MCP domain already asks this one about agents.
 */
async function mcpToolsOfAgents(deps: AppDeps, organizationId: string, agentIds: string[]): Promise<McpToolOfAgent[]> {
  if (!agentIds.length) return []
  return deps.db
    .select({ agentId: mcpToolAgents.agentId, server: mcpServers.name, tool: mcpTools.name })
    .from(mcpToolAgents)
    .innerJoin(mcpTools, eq(mcpTools.id, mcpToolAgents.toolId))
    .innerJoin(mcpServers, eq(mcpServers.id, mcpTools.serverId))
    .where(and(eq(mcpTools.organizationId, organizationId), eq(mcpTools.scope, 'agents'), inArray(mcpToolAgents.agentId, agentIds)))
    .orderBy(mcpServers.name, mcpTools.name)
}

/** Owner names and the groups the caller's own agents among these are shared with. */
async function sharingOf(deps: AppDeps, caller: SessionUser, list: Array<Pick<AgentRow, 'id' | 'userId'>>, ownerNames?: Map<string, string>): Promise<Sharing> {
  const own = list.filter((a) => a.userId === caller.id).map((a) => a.id)
  const names =
    ownerNames ??
    new Map(
      (await deps.db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, [...new Set(list.map((a) => a.userId))]))).map((u) => [u.id, u.name]),
    )
  const shares = await shareGroupsOf(deps, agentShareLink, own)
  return { caller, ownerNames: names, groups: shares }
}

/**
 * The agents the caller may use, newest first: their own and those shared with them (`mine`
 * tells); an agent whose model was unpermitted (or is not open to the caller) stays, marked unavailable.
 */
export async function listAgents(deps: AppDeps, caller: SessionUser) {
  const rows = await readableAgents(deps.db)({ userId: caller.id, organizationId: caller.organizationId })
  const sharing: Sharing = {
    caller,
    ownerNames: new Map(rows.map((a) => [a.userId, a.ownerName])),
    groups: rows.flatMap((a) => (JSON.parse(a.groups) as Array<{ id: string; name: string }>).map((g) => ({ itemId: a.id, ...g }))),
  }
  return rows.map((a) => {
    const model = usableModel(deps, a.modelId, a)
    const mcp = (JSON.parse(a.mcpTools) as Array<{ server: string; tool: string }>).map((t) => ({ agentId: a.id, ...t }))
    return toView(a, model && !model.embedding ? [model] : [], JSON.parse(a.collections) as AttachedCollection[], mcp, sharing)
  })
}

async function viewOf(deps: AppDeps, caller: SessionUser, agent: AgentRow, usable?: PermittedModel[]) {
  return toView(
    agent,
    usable ?? (await languageModels(deps, caller)),
    await collectionsOf(deps, caller, agent.id),
    await mcpToolsOfAgents(deps, caller.organizationId, [agent.id]),
    await sharingOf(deps, caller, [agent]),
  )
}

export async function getAgent(deps: AppDeps, caller: SessionUser, id: string) {
  return viewOf(deps, caller, await findAgent(deps, caller, id))
}

export async function createAgent(deps: AppDeps, caller: SessionUser, { collectionIds, ...input }: z.infer<typeof agentBody>) {
  const usable = await checkModel(deps, caller, input.modelId)
  const collections = await checkReadable(deps, caller, collectionIds ?? [])
  const [row] = await deps.db
    .insert(agents)
    .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, userId: caller.id, ...input, tools: input.tools && chosenTools(input.tools) })
    .returning()
  await setAgentCollections(deps, row!.id, collections)
  return toView(row!, usable, await describeCollections(deps, collections), [], await sharingOf(deps, caller, [row!]))
}

/** Changes take effect with the agent's next reply in every chat that uses it. */
export async function updateAgent(deps: AppDeps, caller: SessionUser, id: string, { collectionIds, ...input }: z.infer<typeof agentBody>) {
  await findAgent(deps, caller, id, true)
  const usable = await checkModel(deps, caller, input.modelId)
  if (collectionIds) await setAgentCollections(deps, id, await checkReadable(deps, caller, collectionIds))
  const [row] = await deps.db
    .update(agents)
    .set({ ...input, tools: input.tools && chosenTools(input.tools), updatedAt: new Date() })
    .where(and(eq(agents.id, id), eq(agents.userId, caller.id)))
    .returning()
  return viewOf(deps, caller, row!, usable)
}

/** Shares an agent read-only with the organisation and/or groups of it, replacing the shares before: its owner only. */
export async function shareAgent(deps: AppDeps, caller: SessionUser, id: string, sharing: z.infer<typeof readOnlySharingBody>) {
  await findAgent(deps, caller, id, true)
  // A group of another organisation (or none at all) is refused before anything changes.
  await groupsOfOrganization(deps, caller.organizationId, sharing.groupIds, 'groupIds')
  await deps.db.batch([
    deps.db.update(agents).set({ sharedWithOrganization: sharing.organization }).where(eq(agents.id, id)),
    deps.db.delete(agentGroups).where(eq(agentGroups.agentId, id)),
    ...sharing.groupIds.map((groupId) => deps.db.insert(agentGroups).values({ agentId: id, groupId })),
  ])
  return getAgent(deps, caller, id)
}

/**
 * The caller's own, private copy of an agent they may use: its name, instructions, model and tools,
 * and those of its collections the caller may read (decision 0069).
 */
export async function copyAgent(deps: AppDeps, caller: SessionUser, id: string) {
  const source = await findAgent(deps, caller, id)
  const collections = await readableOf(deps, caller.id, caller.organizationId, await collectionIdsOfAgent(deps, id))
  const [row] = await deps.db
    .insert(agents)
    .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, userId: caller.id, name: source.name, instructions: source.instructions, modelId: source.modelId, tools: source.tools })
    .returning()
  await setAgentCollections(deps, row!.id, collections)
  return viewOf(deps, caller, row!)
}

/** Deletes an agent; chats that used it keep their own model. */
export async function deleteAgent(deps: AppDeps, caller: SessionUser, id: string) {
  await findAgent(deps, caller, id, true)
  await deps.db.delete(agents).where(and(eq(agents.id, id), eq(agents.userId, caller.id)))
}
