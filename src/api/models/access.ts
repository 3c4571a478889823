import { and, asc, eq, sql, type SQL } from 'drizzle-orm'
import { preparedFor, type Database } from '../../../db/client'
import { groupMembers, modelEndpoints, modelGroupAccess, modelSettings, permittedModels, permittedProviders, userModelDefaults } from '../../../db/schema'
import { createProvider, withUsageMeter, type ChatProvider } from '../../ai'
import { recordUsage } from '../usage/access'
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

/** Whose call it is: every model call is recorded as usage of a member (and of a chat, when it is for one). */
export type UsageMeter = { userId: string; threadId: string | null }

/**
 * A gateway client for a provider the organisation can reach, with its credentials. Every call
 * through it is recorded as usage (tokens and cost) of `meter`'s member: whatever calls a model
 * (chat replies, titles, tool turns, embeddings, any other API) gets its usage counted here.
 */
export async function providerClient(deps: AppDeps, organizationId: string, providerId: string, meter: UsageMeter): Promise<ChatProvider> {
  const client = await unmeteredClient(deps, organizationId, providerId)
  return withUsageMeter(client, async (call) => {
    try {
      const row = await priceOf(deps.db).get({ organizationId, providerId, model: call.model })
      const { price } = effectivePrice({ providerId, model: call.model, priceInput: row?.priceInput ?? null, priceOutput: row?.priceOutput ?? null })
      const cost = (call.inputTokens * price.input + call.outputTokens * price.output) / 1_000_000
      await recordUsage(deps, { organizationId, ...meter, modelRef: `${providerId}/${call.model}`, kind: call.kind, inputTokens: call.inputTokens, outputTokens: call.outputTokens, estimated: call.estimated, cost })
    } catch (error) {
      deps.logger.error('could not record usage', { organizationId, providerId, model: call.model, error })
    }
  })
}

/** The prices an admin set for a permitted model: asked at the end of every model call, so prepared once. */
const priceOf = preparedFor((db) =>
  db
    .select({ priceInput: permittedModels.priceInput, priceOutput: permittedModels.priceOutput })
    .from(permittedModels)
    .where(
      and(
        eq(permittedModels.organizationId, sql.placeholder('organizationId')),
        eq(permittedModels.providerId, sql.placeholder('providerId')),
        eq(permittedModels.model, sql.placeholder('model')),
      ),
    )
    .prepare(),
)

/** A client without usage recording: for calls that use no tokens (listing an endpoint's models). */
async function unmeteredClient(deps: AppDeps, organizationId: string, providerId: string): Promise<ChatProvider> {
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
    const client = await unmeteredClient(deps, organizationId, provider.id)
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
/**
 * The access rule (a condition on `permittedModels`): a model is open to every member unless it
 * is restricted, then to the members of its groups only. Binds the member as `userId`.
 */
export const openToUser = sql`(${permittedModels.restricted} = 0 or exists (select 1 from ${modelGroupAccess} inner join ${groupMembers} on ${groupMembers.groupId} = ${modelGroupAccess.groupId} where ${modelGroupAccess.modelId} = ${permittedModels.id} and ${groupMembers.userId} = ${sql.placeholder('userId')}))`
export const usableModelJoins = {
  endpoint: and(eq(modelEndpoints.organizationId, permittedModels.organizationId), eq(sql`${ENDPOINT_PREFIX} || ${modelEndpoints.id}`, permittedModels.providerId)),
  settings: eq(modelSettings.organizationId, permittedModels.organizationId),
}
/** Each column costs the driver on every row, so the model's id comes from the caller's row. */
export const usableModelColumns = {
  providerId: permittedModels.providerId,
  model: permittedModels.model,
  embedding: permittedModels.embedding,
  restricted: permittedModels.restricted,
  priceInput: permittedModels.priceInput,
  priceOutput: permittedModels.priceOutput,
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
  const own = { restricted: row.restricted === true, priceInput: row.priceInput, priceOutput: row.priceOutput }
  return toPermittedModel({ id, providerId: row.providerId, model: row.model, embedding: row.embedding === true, ...own }, provider, row)
}

/**
 * The organisation's permitted models with what `usableModel` needs, in one statement, under
 * further conditions (`openToUser`, one id); prepared by the statements below.
 */
const usableModelRows = (db: Database, ...conditions: SQL[]) =>
  db
    .select({ id: permittedModels.id, ...usableModelColumns })
    .from(permittedModels)
    .leftJoin(modelEndpoints, usableModelJoins.endpoint)
    .leftJoin(modelSettings, usableModelJoins.settings)
    .where(and(eq(permittedModels.organizationId, sql.placeholder('organizationId')), providerPermitted, ...conditions))

const oldestFirst = [asc(permittedModels.createdAt), sql`${permittedModels}.rowid`] as const
const byId = eq(permittedModels.id, sql.placeholder('id'))

/** All of the organisation's permitted models. */
const permittedModelRows = preparedFor((db) => usableModelRows(db).orderBy(...oldestFirst).prepare())
/** The same, open to one member (`openToUser`). */
const memberModelRows = preparedFor((db) => usableModelRows(db, openToUser).orderBy(...oldestFirst).prepare())
/** One of them by its id (`id`). */
const permittedModelRow = preparedFor((db) => usableModelRows(db, byId).prepare())
/** One of those open to one member by its id. */
const memberModelRow = preparedFor((db) => usableModelRows(db, byId, openToUser).prepare())

/**
 * Permitted models that can be used right now (see `usableModel`), oldest first: all of the
 * organisation's (what admins manage), or those open to one member (what they may use).
 */
export async function usablePermittedModels(deps: AppDeps, organizationId: string, member?: Pick<SessionUser, 'id'>): Promise<PermittedModel[]> {
  const rows = member
    ? await memberModelRows(deps.db).all({ organizationId, userId: member.id })
    : await permittedModelRows(deps.db).all({ organizationId })
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

/**
 * What a call of the model costs in US dollars per million tokens: the admin's price, else the
 * catalogue's; an organisation's own endpoint (or a model the catalogue has no price for) costs 0.
 */
export function effectivePrice(row: Pick<PermittedRow, 'providerId' | 'model' | 'priceInput' | 'priceOutput'>) {
  if (row.priceInput !== null && row.priceOutput !== null) return { price: { input: row.priceInput, output: row.priceOutput }, overridden: true }
  return { price: describe(row).price ?? { input: 0, output: 0 }, overridden: false }
}

export function toPermittedModel(
  row: Pick<PermittedRow, 'id' | 'providerId' | 'model' | 'embedding' | 'restricted' | 'priceInput' | 'priceOutput'>,
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
    ...priced(row, m),
    restricted: row.restricted,
    isOrganizationDefault: settings.defaultModelId === row.id,
    isEmbeddingModel: settings.embeddingModelId === row.id,
  }
}

/**
 * The language models a member may chat with: permitted, usable and open to them. Every path
 * that picks a model for a member (picker, defaults, agents, chats, sending) goes through here.
 */
function priced(row: Parameters<typeof effectivePrice>[0], m: CatalogueModel) {
  const { price, overridden } = effectivePrice(row)
  return { price: overridden || m.price ? price : null, priceOverridden: overridden }
}

/** The organisation's embedding model if it is set and usable, else null (files in chats, /v1/embeddings). */
export async function embeddingModelOf(deps: AppDeps, organizationId: string) {
  const [settings, usable] = await Promise.all([settingsOf(deps, organizationId), usablePermittedModels(deps, organizationId)])
  return usable.find((m) => m.id === settings.embeddingModelId && m.embedding) ?? null
}

export async function languageModels(deps: AppDeps, caller: Pick<SessionUser, 'id' | 'organizationId'>) {
  return (await usablePermittedModels(deps, caller.organizationId, caller)).filter((m) => !m.embedding)
}

/** The model a new chat uses: the user's default, else the organisation's, else the first permitted one (each open to the user). */
export async function resolveDefaultModel(deps: AppDeps, caller: SessionUser): Promise<PermittedModel> {
  const models = await languageModels(deps, caller)
  const own = await deps.db.query.userModelDefaults.findFirst({ where: eq(userModelDefaults.userId, caller.id) })
  const settings = await settingsOf(deps, caller.organizationId)
  const pick =
    models.find((m) => m.id === own?.modelId) ?? models.find((m) => m.id === settings.defaultModelId) ?? models[0]
  return pick ?? fail('NO_MODEL_FOUND')
}

/**
 * A permitted, usable language model open to the caller, by its permitted id: the one row, as
 * usablePermittedModels reads them (asked before every reply; reading all of an organisation's
 * models to find one grew with their number, decision 0120).
 */
export async function usableLanguageModel(deps: AppDeps, caller: SessionUser, id: string, scope: 'member' | 'organization' = 'member') {
  const { organizationId } = caller
  const [row] = scope === 'member' ? await memberModelRow(deps.db).all({ id, organizationId, userId: caller.id }) : await permittedModelRow(deps.db).all({ id, organizationId })
  const model = row ? usableModel(deps, row.id, row) : null
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
