import { z } from 'zod'

/** Headers Kontor sets itself for the MCP exchange; an admin cannot replace them. */
const RESERVED_HEADERS = ['host', 'content-type', 'content-length', 'accept', 'connection', 'transfer-encoding', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']

const headerName = z
  .string()
  .trim()
  .min(1, 'Name is required')
  .max(100, 'At most 100 characters')
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'Not a valid header name')
  .refine((v) => !RESERVED_HEADERS.includes(v.toLowerCase()), 'This header is set by Kontor')

const headerValue = z.string().max(4000, 'At most 4,000 characters').regex(/^[^\r\n\0]*$/, 'No line breaks')

export const MCP_TOOL_SCOPES = ['everyone', 'groups', 'agents'] as const
export type McpToolScope = (typeof MCP_TOOL_SCOPES)[number]

export const mcpServerBody = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(60, 'At most 60 characters'),
  url: z
    .string({ error: 'Address is required' })
    .trim()
    .max(2000, 'At most 2,000 characters')
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'Enter a full http(s) address'),
  /** Sent as `Authorization: Bearer …`. */
  bearerToken: z.string().trim().max(4000, 'At most 4,000 characters').optional(),
  headers: z.array(z.object({ name: headerName, value: headerValue })).max(20, 'At most 20 headers').optional(),
})

export const mcpServerIdParams = z.object({ id: z.string().min(1).max(64) })
export const mcpToolParams = z.object({ id: z.string().min(1).max(64), name: z.string().min(1).max(200) })

export const mcpToolAccessBody = z
  .object({
    scope: z.enum(MCP_TOOL_SCOPES, { error: 'Choose who gets the tool' }),
    groupIds: z.array(z.string().min(1).max(64)).max(200).default([]),
    agentIds: z.array(z.string().min(1).max(64)).max(200).default([]),
  })
  .superRefine((v, ctx) => {
    if (v.scope === 'groups' && !v.groupIds.length) ctx.addIssue({ code: 'custom', path: ['groupIds'], message: 'Choose at least one group' })
    if (v.scope === 'agents' && !v.agentIds.length) ctx.addIssue({ code: 'custom', path: ['agentIds'], message: 'Choose at least one agent' })
  })

/** An enabled tool: who gets it. */
const toolAccess = z.object({ scope: z.enum(MCP_TOOL_SCOPES), groupIds: z.array(z.string()), agentIds: z.array(z.string()) })

export const mcpEnabledToolResponse = toolAccess.extend({ name: z.string(), description: z.string() })

export const mcpServerResponse = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  /** The names of the headers sent (values are never shown again); `authorization` for a bearer token. */
  headerNames: z.array(z.string()),
  tools: z.array(mcpEnabledToolResponse),
  createdAt: z.string(),
})

/** A tool as the server lists it now, with its access when it is enabled. */
export const mcpListedToolResponse = z.object({
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  access: toolAccess.nullable(),
})

export const mcpAgentChoiceResponse = z.object({ id: z.string(), name: z.string(), ownerName: z.string() })

export type McpServer = z.infer<typeof mcpServerResponse>
export type McpListedTool = z.infer<typeof mcpListedToolResponse>
export type McpAgentChoice = z.infer<typeof mcpAgentChoiceResponse>
export type McpToolAccess = z.infer<typeof toolAccess>

/**
 * The chat name of an MCP tool: `<server>__<tool>`, letters, digits, `_` and `-` only (what every
 * provider accepts), at most 64 characters. The chat shows it as the tool's name with its server's.
 */
export function mcpToolChatName(serverName: string, toolName: string) {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '')
  const server = (clean(serverName).replace(/_+/g, '_') || 'mcp').slice(0, 20)
  return `${server}__${clean(toolName) || 'tool'}`.slice(0, 64)
}
