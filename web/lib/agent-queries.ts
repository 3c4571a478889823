import { queryOptions } from '@tanstack/react-query'
import type { AgentView } from '../../src/api/agents/schema'
import type { ApiClient } from './api-client'

// Read by the agents screen, the chat's agent picker and /chat?agentId=. Under the models key: an agent's `model` and `available` follow the permitted models, so any
// change to the models (an admin unpermitting one) refreshes the agents too.
const AGENTS = ['models', 'agents'] as const

export const agentQueries = {
  /** Every agent query: the agents feature refreshes them all after a change. */
  all: AGENTS,
  /** The caller's agents, newest first; `available` is false once an agent's model is no longer permitted. */
  list: (api: ApiClient) => queryOptions({ queryKey: [...AGENTS, 'list'], queryFn: () => api.get<AgentView[]>('/agents') }),
  detail: (api: ApiClient, id: string) =>
    queryOptions({ queryKey: [...AGENTS, 'detail', id], queryFn: () => api.get<AgentView>(`/agents/${encodeURIComponent(id)}`) }),
}

