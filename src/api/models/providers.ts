import { and, eq } from 'drizzle-orm'
import { symmetricDecrypt } from 'better-auth/crypto'
import { modelEndpoints } from '../../../db/schema'
import { createProvider, type ChatProvider } from '../../ai'
import type { AppDeps } from '../../lib/context'
import { fail } from '../../lib/errors'
import { CATALOGUE, PLATFORM_PROVIDERS, selfHostedModel, type CatalogueModel, type PlatformProviderId, type ProviderInfo } from './catalogue'

export const ENDPOINT_PREFIX = 'endpoint-'

export type AvailableProvider = ProviderInfo & { custom: boolean; baseUrl?: string }

/** Platform providers with credentials in the environment, then the organisation's own endpoints. */
export async function availableProviders(deps: AppDeps, organizationId: string): Promise<AvailableProvider[]> {
  const platform = (Object.keys(PLATFORM_PROVIDERS) as PlatformProviderId[])
    .filter((id) => deps.config.providers[id])
    .map((id) => ({ ...PLATFORM_PROVIDERS[id], custom: false }))
  const endpoints = await deps.db.query.modelEndpoints.findMany({ where: eq(modelEndpoints.organizationId, organizationId) })
  return [
    ...platform,
    ...endpoints.map((e) => ({
      id: `${ENDPOINT_PREFIX}${e.id}`,
      name: e.name,
      region: 'selfHosted' as const,
      termsVersion: 'self-hosted',
      listsOwnModels: true,
      custom: true,
      baseUrl: e.baseUrl,
    })),
  ]
}

export async function findAvailableProvider(deps: AppDeps, organizationId: string, providerId: string) {
  const provider = (await availableProviders(deps, organizationId)).find((p) => p.id === providerId)
  return provider ?? fail('PROVIDER_NOT_FOUND')
}

/** A gateway client for a provider the organisation can reach, with its credentials. */
export async function providerClient(deps: AppDeps, organizationId: string, providerId: string): Promise<ChatProvider> {
  if (providerId.startsWith(ENDPOINT_PREFIX)) {
    const endpoint = await deps.db.query.modelEndpoints.findFirst({
      where: and(eq(modelEndpoints.id, providerId.slice(ENDPOINT_PREFIX.length)), eq(modelEndpoints.organizationId, organizationId)),
    })
    if (!endpoint) fail('PROVIDER_NOT_FOUND')
    const apiKey = endpoint!.apiKeyEncrypted
      ? await symmetricDecrypt({ key: deps.config.secret, data: endpoint!.apiKeyEncrypted })
      : undefined
    return createProvider({ kind: 'openai-compatible', baseUrl: endpoint!.baseUrl, apiKey })
  }
  const credentials = deps.config.providers[providerId as PlatformProviderId]
  if (!credentials) fail('PROVIDER_NOT_FOUND')
  const kind = providerId === 'ollama' ? 'openai-compatible' : (providerId as 'openai' | 'anthropic' | 'mistral')
  return createProvider({ kind, apiKey: credentials!.apiKey, baseUrl: credentials!.baseUrl })
}

/**
 * The models a provider offers: the catalogue, or what a self-hosted endpoint reports from
 * /v1/models. An endpoint that does not answer offers none (and says so).
 */
export async function providerModels(deps: AppDeps, organizationId: string, provider: AvailableProvider) {
  if (!provider.listsOwnModels) return { models: CATALOGUE[provider.id as keyof typeof CATALOGUE] ?? [], reachable: true }
  try {
    const client = await providerClient(deps, organizationId, provider.id)
    const names = await client.listModels({ signal: AbortSignal.timeout(5000) })
    return { models: names.map(selfHostedModel), reachable: true }
  } catch (error) {
    deps.logger.warn('model list of a self-hosted provider failed', { provider: provider.id, error })
    return { models: [] as CatalogueModel[], reachable: false }
  }
}
