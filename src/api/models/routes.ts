import { z } from 'zod'
import { defineRoute } from '../../lib/route'
import * as endpoints from './endpoints'
import * as s from './schema'
import * as service from './service'

const tag = 'Models'

export const modelRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/models/available',
      tag,
      summary: 'Models of every available provider, marked with what the organisation permits',
      access: 'admin',
      response: s.availableModelsResponse,
    },
    ({ deps, user }) => service.availableModels(deps, user),
  ),
  defineRoute(
    { method: 'get', path: '/models/permitted', tag, summary: 'All permitted models incl. embedding models', access: 'admin', response: z.array(s.adminPermittedModelResponse) },
    ({ deps, user }) => service.allPermittedModels(deps, user),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/models/permitted/:id/access',
      tag,
      summary: 'Open a language model to every member or to chosen groups only',
      access: 'admin',
      params: s.permittedIdParams,
      body: s.modelAccessBody,
      response: s.adminPermittedModelResponse,
      errors: ['MODEL_NOT_FOUND', 'NOT_A_LANGUAGE_MODEL'],
    },
    ({ deps, user, params, body }) => service.setModelAccess(deps, user, params.id, body),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/models/permitted/:id/price',
      tag,
      summary: "Set the model's price in US dollars per million tokens (used for usage costs)",
      access: 'admin',
      params: s.permittedIdParams,
      body: s.modelPriceBody,
      response: s.adminPermittedModelResponse,
      errors: ['MODEL_NOT_FOUND'],
    },
    ({ deps, user, params, body }) => service.setModelPrice(deps, user, params.id, body),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/models/permitted/:id/price',
      tag,
      summary: "Go back to the catalogue's price (0 for own endpoints)",
      access: 'admin',
      params: s.permittedIdParams,
      response: s.adminPermittedModelResponse,
      errors: ['MODEL_NOT_FOUND'],
    },
    ({ deps, user, params }) => service.setModelPrice(deps, user, params.id, null),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/models/permitted',
      tag,
      summary: 'Permit a model of a permitted provider',
      access: 'admin',
      body: s.permitModelBody,
      response: s.permittedModelResponse,
      status: 201,
      errors: ['PROVIDER_NOT_FOUND', 'PROVIDER_NOT_PERMITTED', 'MODEL_NOT_FOUND', 'MODEL_ALREADY_PERMITTED'],
    },
    async ({ c, deps, user, body }) => c.json(await service.permitModel(deps, user, body.modelId), 201),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/models/permitted/:id',
      tag,
      summary: 'Unpermit a model; defaults pointing at it are cleared',
      access: 'admin',
      params: s.permittedIdParams,
      status: 204,
      errors: ['MODEL_NOT_FOUND'],
    },
    async ({ deps, user, params }) => {
      await service.unpermitModel(deps, user, params.id)
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/models/permitted/language-models',
      tag,
      summary: 'Permitted language models the caller can chat with',
      access: 'user',
      response: z.array(s.permittedModelResponse),
    },
    ({ deps, user }) => service.permittedLanguageModels(deps, user),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/models/default',
      tag,
      summary: "The caller's effective default model",
      access: 'user',
      response: s.permittedModelResponse,
      errors: ['NO_MODEL_FOUND'],
    },
    ({ deps, user }) => service.effectiveDefault(deps, user),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/models/organization/default',
      tag,
      summary: "Set the organisation's default model",
      access: 'admin',
      body: s.permittedIdBody,
      response: s.defaultModelResponse,
      errors: ['MODEL_NOT_FOUND', 'NOT_A_LANGUAGE_MODEL'],
    },
    ({ deps, user, body }) => service.setOrganizationDefault(deps, user, body.id),
  ),
  defineRoute(
    { method: 'delete', path: '/models/organization/default', tag, summary: "Clear the organisation's default model", access: 'admin', status: 204 },
    async ({ deps, user }) => {
      await service.setOrganizationDefault(deps, user, null)
    },
  ),
  defineRoute(
    { method: 'get', path: '/models/user/default', tag, summary: "The caller's own default model (or null)", access: 'user', response: s.defaultModelResponse },
    ({ deps, user }) => service.userDefault(deps, user),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/models/user/default',
      tag,
      summary: "Set the caller's own default model",
      access: 'user',
      body: s.permittedIdBody,
      response: s.defaultModelResponse,
      errors: ['MODEL_NOT_FOUND', 'NOT_A_LANGUAGE_MODEL'],
    },
    ({ deps, user, body }) => service.setUserDefault(deps, user, body.id),
  ),
  defineRoute(
    { method: 'delete', path: '/models/user/default', tag, summary: "Clear the caller's own default model", access: 'user', status: 204 },
    async ({ deps, user }) => {
      await service.clearUserDefault(deps, user)
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/models/providers/all-with-permitted-status',
      tag,
      summary: 'Available providers with their hosting region and permitted status',
      access: 'admin',
      response: z.array(s.providerResponse),
    },
    ({ deps, user }) => service.providersWithStatus(deps, user),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/models/providers/permitted',
      tag,
      summary: "Permit a provider, accepting its additional terms",
      access: 'admin',
      body: s.permitProviderBody,
      response: s.providerResponse,
      status: 201,
      errors: ['PROVIDER_NOT_FOUND', 'PROVIDER_ALREADY_PERMITTED'],
    },
    async ({ c, deps, user, body }) => c.json(await service.permitProvider(deps, user, body), 201),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/models/providers/permitted',
      tag,
      summary: 'Unpermit a provider with its models',
      access: 'admin',
      body: s.providerBody,
      status: 204,
      errors: ['PROVIDER_NOT_PERMITTED'],
    },
    async ({ deps, user, body }) => {
      await service.unpermitProvider(deps, user, body.providerId)
    },
  ),
  defineRoute(
    {
      method: 'get',
      path: '/models/embedding/enabled',
      tag,
      summary: 'Whether the organisation has an embedding model',
      access: 'user',
      response: z.object({ isEmbeddingModelEnabled: z.boolean() }),
    },
    ({ deps, user }) => service.embeddingEnabled(deps, user),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/models/embedding',
      tag,
      summary: "Choose the organisation's embedding model",
      access: 'admin',
      body: s.permittedIdBody,
      response: s.defaultModelResponse,
      errors: ['MODEL_NOT_FOUND', 'NOT_AN_EMBEDDING_MODEL'],
    },
    ({ deps, user, body }) => service.setEmbeddingModel(deps, user, body.id),
  ),
  defineRoute(
    { method: 'delete', path: '/models/embedding', tag, summary: 'Use no embedding model', access: 'admin', status: 204 },
    async ({ deps, user }) => {
      await service.setEmbeddingModel(deps, user, null)
    },
  ),
  defineRoute(
    { method: 'get', path: '/models/endpoints', tag, summary: "The organisation's own OpenAI-compatible endpoints", access: 'admin', response: z.array(s.endpointResponse) },
    ({ deps, user }) => endpoints.listEndpoints(deps, user),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/models/endpoints',
      tag,
      summary: 'Add an OpenAI-compatible endpoint (base URL and API key)',
      access: 'admin',
      body: s.createEndpointBody,
      response: s.endpointResponse,
      status: 201,
      errors: ['INVALID_ENDPOINT_URL'],
    },
    async ({ c, deps, user, body }) => c.json(await endpoints.createEndpoint(deps, user, body), 201),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/models/endpoints/:id',
      tag,
      summary: 'Remove an endpoint with its models',
      access: 'admin',
      params: s.endpointIdParams,
      status: 204,
      errors: ['ENDPOINT_NOT_FOUND'],
    },
    async ({ deps, user, params }) => {
      await endpoints.deleteEndpoint(deps, user, params.id)
    },
  ),
]
