import { and, asc, eq } from 'drizzle-orm'
import { modelSettings, permittedModels, permittedProviders, userModelDefaults } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { CATALOGUE, selfHostedModel, type CatalogueModel } from './catalogue'
import { availableProviders, type AvailableProvider } from './providers'
import type { PermittedModel } from './schema'

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

const describe = (row: PermittedRow): CatalogueModel =>
  CATALOGUE[row.providerId as keyof typeof CATALOGUE]?.find((m) => m.model === row.model) ?? selfHostedModel(row.model)

/**
 * Permitted models that can be used right now: their provider is still permitted and still
 * available (credentials in the environment, or the organisation's endpoint still exists).
 */
export async function usablePermittedModels(deps: AppDeps, organizationId: string): Promise<PermittedModel[]> {
  const [rows, providers, permittedProviderRows, settings] = await Promise.all([
    deps.db.select().from(permittedModels).where(eq(permittedModels.organizationId, organizationId)).orderBy(asc(permittedModels.createdAt)),
    availableProviders(deps, organizationId),
    deps.db.select().from(permittedProviders).where(eq(permittedProviders.organizationId, organizationId)),
    settingsOf(deps, organizationId),
  ])
  const permitted = new Set(permittedProviderRows.map((p) => p.providerId))
  const byId = new Map<string, AvailableProvider>(providers.map((p) => [p.id, p]))
  return rows
    .filter((r) => permitted.has(r.providerId) && byId.has(r.providerId))
    .map((r) => toPermittedModel(r, byId.get(r.providerId)!, settings))
}

export function toPermittedModel(
  row: PermittedRow,
  provider: AvailableProvider,
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
  if (model!.embedding) fail('NOT_A_LANGUAGE_MODEL')
  return model!
}

export async function findPermittedRow(deps: AppDeps, organizationId: string, id: string) {
  const row = await deps.db.query.permittedModels.findFirst({
    where: and(eq(permittedModels.id, id), eq(permittedModels.organizationId, organizationId)),
  })
  return row ?? fail('MODEL_NOT_FOUND')
}
