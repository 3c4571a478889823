import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AgentView } from '../../../src/api/agents/schema'
import { agentQueries } from '../../lib/agent-queries'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type Agent = AgentView
export type AgentInput = { name: string; instructions: string; modelId: string; tools: string[]; collectionIds: string[] }

export const agentsApi = {
  create: (api: ApiClient, body: AgentInput) => api.post<Agent>('/agents', body),
  update: (api: ApiClient, id: string, body: AgentInput) => api.put<Agent>(`/agents/${encodeURIComponent(id)}`, body),
  remove: (api: ApiClient, id: string) => api.delete<void>(`/agents/${encodeURIComponent(id)}`),
  share: (api: ApiClient, id: string, body: { organization: boolean; groupIds: string[] }) => api.put<Agent>(`/agents/${encodeURIComponent(id)}/sharing`, body),
  copy: (api: ApiClient, id: string) => api.post<Agent>(`/agents/${encodeURIComponent(id)}/copy`, {}),
}

/** A mutation that refreshes every agent query once it succeeds (and before it counts as done). */
function useAgentsMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentQueries.all }),
  })
}

export const useCreateAgent = () => useAgentsMutation(agentsApi.create)
export const useUpdateAgent = () => useAgentsMutation((api, v: { id: string } & AgentInput) => agentsApi.update(api, v.id, v))
export const useDeleteAgent = () => useAgentsMutation(agentsApi.remove)
export const useShareAgent = () => useAgentsMutation((api, v: { id: string; organization: boolean; groupIds: string[] }) => agentsApi.share(api, v.id, v))
export const useCopyAgent = () => useAgentsMutation(agentsApi.copy)
