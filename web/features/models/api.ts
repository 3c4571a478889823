import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Group } from '../../../src/api/groups/schema'
import type {
  adminPermittedModelResponse,
  availableModelResponse,
  availableModelsResponse,
  defaultModelResponse,
  endpointResponse,
  hostingRegion,
  PermittedModel,
  providerResponse,
} from '../../../src/api/models/schema'
import type { EmbeddingProgress } from '../../../src/api/sources/schema'
import type { ApiClient } from '../../lib/api-client'
import { useApi } from '../../lib/use-api'

export type { PermittedModel }
/** A permitted model as admins see it: also the groups a restricted one is open to. */
export type AdminPermittedModel = z.infer<typeof adminPermittedModelResponse>
export type ModelAccessInput = { id: string; restricted: boolean; groupIds: string[] }
export type Provider = z.infer<typeof providerResponse>
export type AvailableModel = z.infer<typeof availableModelResponse>
export type AvailableModels = z.infer<typeof availableModelsResponse>
export type Endpoint = z.infer<typeof endpointResponse>
export type HostingRegion = z.infer<typeof hostingRegion>
export type CreateEndpointInput = { name: string; baseUrl: string; apiKey?: string }

// Every list below hangs off one key: any change to providers or models can change them all.
const MODELS = ['models'] as const

export const modelQueries = {
  providers: (api: ApiClient) =>
    queryOptions({ queryKey: [...MODELS, 'providers'], queryFn: () => api.get<Provider[]>('/models/providers/all-with-permitted-status') }),
  available: (api: ApiClient) =>
    queryOptions({ queryKey: [...MODELS, 'available'], queryFn: () => api.get<AvailableModels>('/models/available') }),
  permitted: (api: ApiClient) =>
    queryOptions({ queryKey: [...MODELS, 'permitted'], queryFn: () => api.get<AdminPermittedModel[]>('/models/permitted') }),
  /** The groups a model can be opened to (the Groups page reads the same list). */
  groups: (api: ApiClient) => queryOptions({ queryKey: ['groups', 'list'], queryFn: () => api.get<Group[]>('/groups') }),
  userDefault: (api: ApiClient) =>
    queryOptions({
      queryKey: [...MODELS, 'user-default'],
      queryFn: () => api.get<z.infer<typeof defaultModelResponse>>('/models/user/default'),
    }),
  endpoints: (api: ApiClient) =>
    queryOptions({ queryKey: [...MODELS, 'endpoints'], queryFn: () => api.get<Endpoint[]>('/models/endpoints') }),
  /** How far the organisation's files are embedded with its embedding model (asked again every few seconds until done). */
  embeddingProgress: (api: ApiClient) =>
    queryOptions({
      queryKey: [...MODELS, 'embedding-progress'],
      queryFn: () => api.get<EmbeddingProgress>('/sources/embedding'),
      refetchInterval: (query) => (query.state.data && !query.state.data.done ? 3_000 : false),
    }),
}

export const modelsApi = {
  permitProvider: (api: ApiClient, providerId: string) =>
    api.post<Provider>('/models/providers/permitted', { providerId, termsAccepted: true }),
  unpermitProvider: (api: ApiClient, providerId: string) => api.delete<void>('/models/providers/permitted', { providerId }),
  permitModel: (api: ApiClient, modelId: string) => api.post<PermittedModel>('/models/permitted', { modelId }),
  unpermitModel: (api: ApiClient, id: string) => api.delete<void>(`/models/permitted/${encodeURIComponent(id)}`),
  setOrganizationDefault: (api: ApiClient, id: string) => api.put('/models/organization/default', { id }),
  setEmbeddingModel: (api: ApiClient, id: string | null) =>
    id ? api.put('/models/embedding', { id }) : api.delete<void>('/models/embedding'),
  /** `null` goes back to the organisation's default. */
  setUserDefault: (api: ApiClient, id: string | null) =>
    id ? api.put('/models/user/default', { id }) : api.delete<void>('/models/user/default'),
  createEndpoint: (api: ApiClient, body: CreateEndpointInput) => api.post<Endpoint>('/models/endpoints', body),
  setAccess: (api: ApiClient, { id, ...body }: ModelAccessInput) => api.put<AdminPermittedModel>(`/models/permitted/${encodeURIComponent(id)}/access`, body),
  /** `price` null goes back to the catalogue's price. */
  setPrice: (api: ApiClient, { id, price }: { id: string; price: { input: number; output: number } | null }) =>
    price
      ? api.put<AdminPermittedModel>(`/models/permitted/${encodeURIComponent(id)}/price`, price)
      : api.delete<AdminPermittedModel>(`/models/permitted/${encodeURIComponent(id)}/price`),
  deleteEndpoint: (api: ApiClient, id: string) => api.delete<void>(`/models/endpoints/${encodeURIComponent(id)}`),
}

/** A mutation that refreshes every model list once it succeeds (and before it counts as done). */
function useModelsMutation<T, R>(fn: (api: ApiClient, input: T) => Promise<R>) {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: T) => fn(api, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MODELS }),
  })
}

export const usePermitProvider = () => useModelsMutation(modelsApi.permitProvider)
export const useUnpermitProvider = () => useModelsMutation(modelsApi.unpermitProvider)
export const usePermitModel = () => useModelsMutation(modelsApi.permitModel)
export const useUnpermitModel = () => useModelsMutation(modelsApi.unpermitModel)
export const useSetOrganizationDefault = () => useModelsMutation(modelsApi.setOrganizationDefault)
export const useSetEmbeddingModel = () => useModelsMutation(modelsApi.setEmbeddingModel)
export const useSetUserDefault = () => useModelsMutation(modelsApi.setUserDefault)
export const useCreateEndpoint = () => useModelsMutation(modelsApi.createEndpoint)
export const useSetModelAccess = () => useModelsMutation(modelsApi.setAccess)
export const useSetModelPrice = () => useModelsMutation(modelsApi.setPrice)
export const useDeleteEndpoint = () => useModelsMutation(modelsApi.deleteEndpoint)
