import { z } from 'zod'
import { defineRoute } from '../../lib/route'
import { auditFrom } from '../audit/access'
import * as s from './schema'
import * as service from './service'

const tag = 'MCP servers'

export const mcpServerRoutes = [
  defineRoute(
    { method: 'get', path: '/mcp-servers', tag, summary: "The organisation's MCP servers with their enabled tools", access: 'admin', response: z.array(s.mcpServerResponse) },
    ({ deps, user }) => service.listServers(deps, user),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/mcp-servers',
      tag,
      summary: 'Add a remote MCP server (Streamable HTTP or HTTP+SSE); headers and token are stored encrypted',
      access: 'admin',
      body: s.mcpServerBody,
      response: s.mcpServerResponse,
      status: 201,
      errors: ['INVALID_MCP_SERVER_URL', 'MCP_SERVER_NAME_TAKEN'],
    },
    async ({ c, deps, user, body }) => c.json(await service.addServer(deps, user, body, auditFrom(c)), 201),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/mcp-servers/agent-choices',
      tag,
      summary: "The organisation's agents a tool can be enabled for",
      access: 'admin',
      response: z.array(s.mcpAgentChoiceResponse),
    },
    ({ deps, user }) => service.agentChoices(deps, user),
  ),
  defineRoute(
    { method: 'delete', path: '/mcp-servers/:id', tag, summary: 'Remove an MCP server with its enabled tools', access: 'admin', params: s.mcpServerIdParams, status: 204, errors: ['MCP_SERVER_NOT_FOUND'] },
    async ({ c, deps, user, params }) => {
      await service.removeServer(deps, user, params.id, auditFrom(c))
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/mcp-servers/:id/tools',
      tag,
      summary: 'The tools the server lists now, each with its access when enabled',
      access: 'admin',
      params: s.mcpServerIdParams,
      response: z.array(s.mcpListedToolResponse),
      errors: ['MCP_SERVER_NOT_FOUND', 'MCP_SERVER_UNREACHABLE'],
    },
    ({ deps, user, params }) => service.serverTools(deps, user, params.id),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/mcp-servers/:id/tools/:name',
      tag,
      summary: 'Enable a tool for everyone, for chosen groups or for chosen agents (or change who gets it)',
      access: 'admin',
      params: s.mcpToolParams,
      body: s.mcpToolAccessBody,
      response: s.mcpListedToolResponse,
      errors: ['MCP_SERVER_NOT_FOUND', 'MCP_TOOL_NOT_FOUND', 'MCP_SERVER_UNREACHABLE'],
    },
    ({ c, deps, user, params, body }) => service.enableTool(deps, user, params.id, params.name, body, auditFrom(c)),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/mcp-servers/:id/tools/:name',
      tag,
      summary: 'Disable a tool',
      access: 'admin',
      params: s.mcpToolParams,
      status: 204,
      errors: ['MCP_SERVER_NOT_FOUND', 'MCP_TOOL_NOT_FOUND'],
    },
    async ({ c, deps, user, params }) => {
      await service.disableTool(deps, user, params.id, params.name, auditFrom(c))
    },
  ),
]
