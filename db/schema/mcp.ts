import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { groups } from './governance'
import { organizations } from './organizations'
import { agents } from './chat'

/**
 * A remote MCP server an admin added to the organisation. `headersEncrypted` holds the request
 * headers (a bearer token among them) as JSON, encrypted with the instance secret like endpoint keys.
 */
export const mcpServers = sqliteTable(
  'mcp_servers',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    headersEncrypted: text('headers_encrypted'),
    /** The names of the headers (never their values), for the admin screen. */
    headerNames: text('header_names', { mode: 'json' }).$type<string[]>().notNull().default([]),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [index('mcp_servers_organization_idx').on(t.organizationId), uniqueIndex('mcp_servers_name_unique').on(t.organizationId, t.name)],
)

/**
 * A tool of an MCP server that an admin enabled, with the description and input schema the server
 * listed when it was enabled (a chat offers it without asking the server first). `scope` says who
 * gets it: everyone, the members of the groups in `mcp_tool_groups`, or chats with an agent of `mcp_tool_agents`.
 */
export const mcpTools = sqliteTable(
  'mcp_tools',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    serverId: text('server_id')
      .notNull()
      .references(() => mcpServers.id, { onDelete: 'cascade' }),
    /** The tool's name at the server. */
    name: text('name').notNull(),
    description: text('description').notNull(),
    /** JSON Schema of the arguments, as listed by the server. */
    inputSchema: text('input_schema', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    scope: text('scope', { enum: ['everyone', 'groups', 'agents'] }).notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [uniqueIndex('mcp_tools_server_name_unique').on(t.serverId, t.name), index('mcp_tools_organization_idx').on(t.organizationId)],
)

export const mcpToolGroups = sqliteTable(
  'mcp_tool_groups',
  {
    toolId: text('tool_id')
      .notNull()
      .references(() => mcpTools.id, { onDelete: 'cascade' }),
    groupId: text('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.toolId, t.groupId] }), index('mcp_tool_groups_group_idx').on(t.groupId)],
)

export const mcpToolAgents = sqliteTable(
  'mcp_tool_agents',
  {
    toolId: text('tool_id')
      .notNull()
      .references(() => mcpTools.id, { onDelete: 'cascade' }),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.toolId, t.agentId] }), index('mcp_tool_agents_agent_idx').on(t.agentId)],
)
