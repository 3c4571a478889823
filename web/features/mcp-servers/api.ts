import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { Group } from '../../../src/api/groups/schema'
import type { McpAgentChoice, McpListedTool, McpServer, McpToolAccess } from '../../../src/api/mcp-servers/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type { Group, McpAgentChoice, McpListedTool, McpServer, McpToolAccess }

const SERVERS = ['mcp-servers', 'list'] as const

export const mcpQueries = {
  list: (api: ApiClient) => queryOptions({ queryKey: SERVERS, queryFn: () => api.get<McpServer[]>('/mcp-servers') }),
  /** Asks the server itself: fetched when an admin opens a server's tools, never retried on its own. */
  tools: (api: ApiClient, id: string) =>
    queryOptions({ queryKey: ['mcp-servers', 'tools', id], queryFn: () => api.get<McpListedTool[]>(`/mcp-servers/${encodeURIComponent(id)}/tools`), retry: false, staleTime: 0 }),
  /** The groups a tool can be enabled for (the Groups page reads the same list). */
  groups: (api: ApiClient) => queryOptions({ queryKey: ['groups', 'list'], queryFn: () => api.get<Group[]>('/groups') }),
  agents: (api: ApiClient) => queryOptions({ queryKey: ['mcp-servers', 'agents'], queryFn: () => api.get<McpAgentChoice[]>('/mcp-servers/agent-choices') }),
}

export type NewMcpServer = { name: string; url: string; bearerToken?: string; headers?: { name: string; value: string }[] }

const toolPath = (id: string, name: string) => `/mcp-servers/${encodeURIComponent(id)}/tools/${encodeURIComponent(name)}`

function useMcpMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: (input: T) => fn(api, input), onSuccess: () => queryClient.invalidateQueries({ queryKey: ['mcp-servers'] }) })
}

export const useAddMcpServer = () => useMcpMutation((api, input: NewMcpServer) => api.post<McpServer>('/mcp-servers', input))
export const useRemoveMcpServer = () => useMcpMutation((api, id: string) => api.delete<void>(`/mcp-servers/${encodeURIComponent(id)}`))
export const useEnableMcpTool = () =>
  useMcpMutation((api, v: { id: string; name: string; access: McpToolAccess }) => api.put<McpListedTool>(toolPath(v.id, v.name), v.access))
export const useDisableMcpTool = () => useMcpMutation((api, v: { id: string; name: string }) => api.delete<void>(toolPath(v.id, v.name)))
