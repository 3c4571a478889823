import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { preparedFor } from '../../../db/client'
import { agents, mcpServers, mcpToolAgents, mcpTools, modelEndpoints, modelSettings, permittedModels } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError } from '../../lib/errors'
import { languageModels, openToUser, providerPermitted, usableModel, usableModelColumns, usableModelJoins } from '../models/access'
import { findOwnAgent } from './access'
import { AGENT_TOOLS } from './limits'
import { checkReadable, collectionIdsOfAgent, describeCollections, readableOf, setAgentCollections } from '../knowledge/access'
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
  createdAt: agents.createdAt,
  updatedAt: agents.updatedAt,
}

type McpToolOfAgent = { agentId: string; server: string; tool: string }

const toView = (a: Pick<AgentRow, keyof typeof viewColumns>, usable: PermittedModel[], collections: AttachedCollection[], mcp: McpToolOfAgent[]): AgentView => {
  const model = usable.find((m) => m.id === a.modelId) ?? null
  return {
    id: a.id,
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

// The agent's model comes joined, decided by the models' own rule (`usableModel`).
const ownAgents = preparedFor((db) =>
  db
    .select({ ...viewColumns, ...usableModelColumns })
    .from(agents)
    .leftJoin(
      permittedModels,
      and(eq(permittedModels.id, agents.modelId), eq(permittedModels.organizationId, sql.placeholder('organizationId')), providerPermitted, openToUser),
    )
    .leftJoin(modelEndpoints, usableModelJoins.endpoint)
    .leftJoin(modelSettings, usableModelJoins.settings)
    .where(eq(agents.userId, sql.placeholder('userId')))
    .orderBy(desc(agents.createdAt))
    .prepare(),
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

/** The caller's agents, newest first; an agent whose model was unpermitted stays, marked unavailable. */
export async function listAgents(deps: AppDeps, caller: SessionUser) {
  const rows = await ownAgents(deps.db).all({ userId: caller.id, organizationId: caller.organizationId })
  const mcp = await mcpToolsOfAgents(deps, caller.organizationId, rows.map((a) => a.id))
  return Promise.all(
    rows.map(async (a) => {
      const model = usableModel(deps, a.modelId, a)
      return toView(a, model && !model.embedding ? [model] : [], await collectionsOf(deps, caller, a.id), mcp)
    }),
  )
}

export async function getAgent(deps: AppDeps, caller: SessionUser, id: string) {
  return toView(await findOwnAgent(deps, caller, id), await languageModels(deps, caller), await collectionsOf(deps, caller, id), await mcpToolsOfAgents(deps, caller.organizationId, [id]))
}

export async function createAgent(deps: AppDeps, caller: SessionUser, { collectionIds, ...input }: z.infer<typeof agentBody>) {
  const usable = await checkModel(deps, caller, input.modelId)
  const collections = await checkReadable(deps, caller, collectionIds ?? [])
  const [row] = await deps.db
    .insert(agents)
    .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, userId: caller.id, ...input, tools: input.tools && chosenTools(input.tools) })
    .returning()
  await setAgentCollections(deps, row!.id, collections)
  return toView(row!, usable, await describeCollections(deps, collections), [])
}

/** Changes take effect with the agent's next reply in every chat that uses it. */
export async function updateAgent(deps: AppDeps, caller: SessionUser, id: string, { collectionIds, ...input }: z.infer<typeof agentBody>) {
  await findOwnAgent(deps, caller, id)
  const usable = await checkModel(deps, caller, input.modelId)
  if (collectionIds) await setAgentCollections(deps, id, await checkReadable(deps, caller, collectionIds))
  const [row] = await deps.db
    .update(agents)
    .set({ ...input, tools: input.tools && chosenTools(input.tools), updatedAt: new Date() })
    .where(and(eq(agents.id, id), eq(agents.userId, caller.id)))
    .returning()
  return toView(row!, usable, await collectionsOf(deps, caller, id), await mcpToolsOfAgents(deps, caller.organizationId, [id]))
}

/** Deletes an agent; chats that used it keep their own model. */
export async function deleteAgent(deps: AppDeps, caller: SessionUser, id: string) {
  await findOwnAgent(deps, caller, id)
  await deps.db.delete(agents).where(and(eq(agents.id, id), eq(agents.userId, caller.id)))
}
