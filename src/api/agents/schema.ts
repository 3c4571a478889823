import { z } from 'zod'
import { attachedCollectionResponse, COLLECTIONS_PER_CHAT_MAX } from '../knowledge/schema'
import { readOnlySharingFields } from '../groups/schema'
import { permittedModelResponse } from '../models/schema'
import { AGENT_NAME_MAX, AGENT_INSTRUCTIONS_MAX, AGENT_TOOLS } from './limits'

export { AGENT_NAME_MAX, AGENT_INSTRUCTIONS_MAX, AGENT_TOOLS } from './limits'

const agentTool = z.enum(AGENT_TOOLS, { error: `Unknown tool; the tools are ${AGENT_TOOLS.join(', ')}` })

export const agentBody = z.object({
  // A missing field reads as an empty one.
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(AGENT_NAME_MAX, `Name must be at most ${AGENT_NAME_MAX} characters`),
  instructions: z
    .string({ error: 'Instructions are required' })
    .max(AGENT_INSTRUCTIONS_MAX, `Instructions must be at most ${AGENT_INSTRUCTIONS_MAX} characters`)
    .refine((v) => v.trim().length > 0, 'Instructions are required'),
  modelId: z.string({ error: 'Model is required' }).min(1, 'Model is required').max(64, 'Choose a model your organisation permits'),
  /** Knowledge collections every chat with the agent searches (each readable by the caller); missing: unchanged. */
  collectionIds: z.array(z.string().min(1).max(64)).max(COLLECTIONS_PER_CHAT_MAX, `At most ${COLLECTIONS_PER_CHAT_MAX} collections`).optional(),
  /** The built-in tools chats with the agent may offer; missing: every one for a new agent, unchanged for an existing one. */
  tools: z.array(agentTool, { error: 'Tools must be a list of tool names' }).max(AGENT_TOOLS.length * 2, 'Too many tools').optional(),
})
export const agentIdParams = z.object({ id: z.string().min(1).max(64) })

export const agentResponse = z.object({
  id: z.string(),
  ...readOnlySharingFields,
  name: z.string(),
  instructions: z.string(),
  modelId: z.string().nullable(),
  /** The agent's model while it is permitted; null when it was unpermitted (the agent is unavailable). */
  model: permittedModelResponse.nullable(),
  available: z.boolean(),
  /** The agent's knowledge collections the caller may read. */
  collections: z.array(attachedCollectionResponse),
  /** The built-in tools chats with the agent may offer (a tool also needs what it works with, e.g. a search backend or files). */
  tools: z.array(agentTool),
  /** The MCP tools an admin enabled for chats with this agent (chosen in the MCP server settings, not here). */
  mcpTools: z.array(z.object({ server: z.string(), tool: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type AgentView = z.infer<typeof agentResponse>
