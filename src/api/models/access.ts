import { and, asc, eq, sql } from 'drizzle-orm'
import { preparedFor } from '../../../db/client'
import { modelEndpoints, modelSettings, permittedModels, permittedProviders, userModelDefaults } from '../../../db/schema'
import { createProvider, type ChatProvider } from '../../ai'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { outboundFetch, serverPolicy } from '../../lib/outbound'
import { decryptEndpointKey } from './endpoint-keys'
import { CATALOGUE, PLATFORM_PROVIDERS, selfHostedModel, type CatalogueModel, type PlatformProviderId, type ProviderInfo } from './catalogue'
import type { PermittedModel } from './schema'

/**
 * The model lookups other domains need (agents, threads, chat, sources): the providers an
 * organisation can use and a client for one, the permitted models and the defaults.
 */
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
    const apiKey = endpoint.apiKeyEncrypted ? await decryptEndpointKey(deps, { id: endpoint.id, apiKeyEncrypted: endpoint.apiKeyEncrypted }) : undefined
    // The organisation's own address: public only, unless the operator allowed its host.
    return createProvider({ kind: 'openai-compatible', baseUrl: endpoint.baseUrl, apiKey, fetch: outboundFetch(serverPolicy(deps)) })
  }
  const credentials = deps.config.providers[providerId as PlatformProviderId]
  if (!credentials) fail('PROVIDER_NOT_FOUND')
  const kind = providerId === 'ollama' || providerId === 'demo' ? 'openai-compatible' : (providerId as 'openai' | 'anthropic' | 'mistral')
  return createProvider({ kind, apiKey: credentials.apiKey, baseUrl: credentials.baseUrl, fetch: outboundFetch(serverPolicy(deps, credentials.baseUrl)) })
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

type PermittedRow = typeof permittedModels.$inferSelect

/** The organisation's model settings row (created on first use). */
export async function settingsOf(deps: AppDeps, organizationId: string) {
  const row = await deps.db.query.modelSettings.findFirst({ where: eq(modelSettings.organizationId, organizationId) })
  return row ?? { organizationId, defaultModelId: null, embeddingModelId: null }
}

export async function saveSettings(deps: AppDeps, organizationId: string, values: Partial<typeof modelSettings.$inferInsert>) {
  await deps.db
    .insert(modelSettings)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: modelSettings.organizationId, set: values })
}

const describe = (row: Pick<PermittedRow, 'providerId' | 'model'>): CatalogueModel =>
  CATALOGUE[row.providerId as keyof typeof CATALOGUE]?.find((m) => m.model === row.model) ?? selfHostedModel(row.model)

/**
 * What decides whether a permitted model is usable, for statements that join it: its provider is
 * still permitted (`providerPermitted`, a condition on `permittedModels`), the organisation's
 * endpoint (a self-hosted provider's name) and the organisation's model choices. Join with
 * `leftJoin` after `permittedModels`; `usableModel` reads the row.
 */
export const providerPermitted = sql`exists (select 1 from ${permittedProviders} where ${permittedProviders.organizationId} = ${permittedModels.organizationId} and ${permittedProviders.providerId} = ${permittedModels.providerId})`
export const usableModelJoins = {
  endpoint: and(eq(modelEndpoints.organizationId, permittedModels.organizationId), eq(sql`${ENDPOINT_PREFIX} || ${modelEndpoints.id}`, permittedModels.providerId)),
  settings: eq(modelSettings.organizationId, permittedModels.organizationId),
}
/** Each column costs the driver on every row, so the model's id comes from the caller's row. */
export const usableModelColumns = {
  providerId: permittedModels.providerId,
  model: permittedModels.model,
  embedding: permittedModels.embedding,
  endpointName: modelEndpoints.name,
  defaultModelId: modelSettings.defaultModelId,
  embeddingModelId: modelSettings.embeddingModelId,
}
type UsableModelRow = { [K in keyof typeof usableModelColumns]: (typeof usableModelColumns)[K]['_']['data'] | null }

/**
 * The joined permitted model `id` when it can be used right now: its provider is still permitted
 * (else the join found nothing) and still available (credentials in the environment, or the
 * organisation's endpoint still exists).
 */
export function usableModel(deps: AppDeps, id: string | null, row: UsableModelRow): PermittedModel | null {
  if (id === null || row.providerId === null || row.model === null) return null
  const provider = row.providerId.startsWith(ENDPOINT_PREFIX)
    ? row.endpointName === null
      ? undefined
      : { name: row.endpointName, region: 'selfHosted' as const }
    : platformProvider(deps, row.providerId)
  if (!provider) return null
  return toPermittedModel({ id, providerId: row.providerId, model: row.model, embedding: row.embedding === true }, provider, row)
}

/** The organisation's permitted models with what `usableModel` needs: one statement. */
const permittedModelRows = preparedFor((db) =>
  db
    .select({ id: permittedModels.id, ...usableModelColumns })
    .from(permittedModels)
    .leftJoin(modelEndpoints, usableModelJoins.endpoint)
    .leftJoin(modelSettings, usableModelJoins.settings)
    .where(and(eq(permittedModels.organizationId, sql.placeholder('organizationId')), providerPermitted))
    .orderBy(asc(permittedModels.createdAt), sql`${permittedModels}.rowid`)
    .prepare(),
)

/** Permitted models that can be used right now (see `usableModel`), oldest first. */
export async function usablePermittedModels(deps: AppDeps, organizationId: string): Promise<PermittedModel[]> {
  const rows = await permittedModelRows(deps.db).all({ organizationId })
  const usable: PermittedModel[] = []
  for (const row of rows) {
    const model = usableModel(deps, row.id, row)
    if (model) usable.push(model)
  }
  return usable
}

function platformProvider(deps: AppDeps, providerId: string) {
  return Object.hasOwn(PLATFORM_PROVIDERS, providerId) && deps.config.providers[providerId as PlatformProviderId]
    ? PLATFORM_PROVIDERS[providerId as PlatformProviderId]
    : undefined
}

export function toPermittedModel(
  row: Pick<PermittedRow, 'id' | 'providerId' | 'model' | 'embedding'>,
  provider: Pick<AvailableProvider, 'name' | 'region'>,
  settings: { defaultModelId: string | null; embeddingModelId: string | null },
): PermittedModel {
  const m = describe(row)
  return {
    id: row.id,
    modelId: `${row.providerId}/${row.model}`,
    providerId: row.providerId,
    providerName: provider.name,
    region: provider.region,
    model: row.model,
    displayName: m.displayName,
    streaming: m.streaming,
    reasoning: m.reasoning,
    embedding: row.embedding,
    contextWindow: m.contextWindow,
    price: m.price,
    isOrganizationDefault: settings.defaultModelId === row.id,
    isEmbeddingModel: settings.embeddingModelId === row.id,
  }
}

export async function languageModels(deps: AppDeps, organizationId: string) {
  return (await usablePermittedModels(deps, organizationId)).filter((m) => !m.embedding)
}

/** The organisation's embedding model if it is set and usable, else null (files in chats, /v1/embeddings). */
export async function embeddingModelOf(deps: AppDeps, organizationId: string) {
  const [settings, usable] = await Promise.all([settingsOf(deps, organizationId), usablePermittedModels(deps, organizationId)])
  return usable.find((m) => m.id === settings.embeddingModelId && m.embedding) ?? null
}

/** The language models a user may choose: the web app's model list and the API's (/v1/models) alike. */
export async function callerLanguageModels(deps: AppDeps, caller: SessionUser) {
  return languageModels(deps, caller.organizationId)
}

/** The model a new chat uses: the user's default, else the organisation's, else the first permitted one. */
export async function resolveDefaultModel(deps: AppDeps, caller: SessionUser): Promise<PermittedModel> {
  const models = await languageModels(deps, caller.organizationId)
  const own = await deps.db.query.userModelDefaults.findFirst({ where: eq(userModelDefaults.userId, caller.id) })
  const settings = await settingsOf(deps, caller.organizationId)
  const pick =
    models.find((m) => m.id === own?.modelId) ?? models.find((m) => m.id === settings.defaultModelId) ?? models[0]
  return pick ?? fail('NO_MODEL_FOUND')
}

/** A permitted, usable language model of the caller's organisation by its permitted id. */
export async function usableLanguageModel(deps: AppDeps, caller: SessionUser, id: string) {
  const model = (await usablePermittedModels(deps, caller.organizationId)).find((m) => m.id === id)
  if (!model) fail('MODEL_NOT_FOUND')
  if (model.embedding) fail('NOT_A_LANGUAGE_MODEL')
  return model
}

export async function findPermittedRow(deps: AppDeps, organizationId: string, id: string) {
  const row = await deps.db.query.permittedModels.findFirst({
    where: and(eq(permittedModels.id, id), eq(permittedModels.organizationId, organizationId)),
  })
  return row ?? fail('MODEL_NOT_FOUND')
}
