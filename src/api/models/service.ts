import { and, eq, inArray } from 'drizzle-orm'
import type { z } from 'zod'
import { modelGroupAccess, permittedModels, permittedProviders, userModelDefaults } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import {
  availableProviders,
  findAvailableProvider,
  findPermittedRow,
  languageModels,
  providerModels,
  resolveDefaultModel,
  saveSettings,
  settingsOf,
  toPermittedModel,
  usableLanguageModel,
  usablePermittedModels,
} from './access'
import { groupsOfOrganization } from '../groups/access'
import type { modelAccessBody, modelPriceBody } from './schema'
import type { permitProviderBody } from './schema'


/** Every provider the organisation could use, with whether (and by whom) it is permitted. */
export async function providersWithStatus(deps: AppDeps, caller: SessionUser) {
  requireAdmin(caller)
  const [providers, permitted] = await Promise.all([
    availableProviders(deps, caller.organizationId),
    deps.db.select().from(permittedProviders).where(eq(permittedProviders.organizationId, caller.organizationId)),
  ])
  return providers.map((p) => {
    const row = permitted.find((r) => r.providerId === p.id)
    return {
      id: p.id,
      name: p.name,
      region: p.region,
      custom: p.custom,
      termsVersion: p.termsVersion,
      termsUrl: p.termsUrl,
      permitted: Boolean(row),
      acceptedAt: row?.acceptedAt.toISOString() ?? null,
      acceptedByName: row?.acceptedByName ?? null,
    }
  })
}

/** Permits a provider; the admin accepts its additional terms, recorded with who, when and which version. */
export async function permitProvider(deps: AppDeps, caller: SessionUser, input: z.infer<typeof permitProviderBody>) {
  requireAdmin(caller)
  const provider = await findAvailableProvider(deps, caller.organizationId, input.providerId)
  const inserted = await deps.db
    .insert(permittedProviders)
    .values({
      organizationId: caller.organizationId,
      providerId: provider.id,
      termsVersion: provider.termsVersion,
      acceptedById: caller.id,
      acceptedByName: caller.name,
      acceptedAt: new Date(),
    })
    .onConflictDoNothing()
    .returning()
  if (!inserted.length) fail('PROVIDER_ALREADY_PERMITTED')
  return (await providersWithStatus(deps, caller)).find((p) => p.id === provider.id)!
}

/** Unpermits a provider and its models; defaults pointing at them are cleared by the foreign keys. */
export async function unpermitProvider(deps: AppDeps, caller: SessionUser, providerId: string) {
  requireAdmin(caller)
  await deps.db.transaction(async (tx) => {
    const removed = await tx
      .delete(permittedProviders)
      .where(and(eq(permittedProviders.organizationId, caller.organizationId), eq(permittedProviders.providerId, providerId)))
      .returning()
    if (!removed.length) fail('PROVIDER_NOT_PERMITTED')
    await tx
      .delete(permittedModels)
      .where(and(eq(permittedModels.organizationId, caller.organizationId), eq(permittedModels.providerId, providerId)))
  })
}

/** The catalogue of every available provider, marked with what the organisation permits. */
export async function availableModels(deps: AppDeps, caller: SessionUser) {
  requireAdmin(caller)
  const [providers, permittedProviderRows, permittedRows] = await Promise.all([
    availableProviders(deps, caller.organizationId),
    deps.db.select().from(permittedProviders).where(eq(permittedProviders.organizationId, caller.organizationId)),
    deps.db.select().from(permittedModels).where(eq(permittedModels.organizationId, caller.organizationId)),
  ])
  const lists = await Promise.all(providers.map((p) => providerModels(deps, caller.organizationId, p)))
  const models = providers.flatMap((p, i) =>
    lists[i]!.models.map((m) => ({
      modelId: `${p.id}/${m.model}`,
      providerId: p.id,
      providerName: p.name,
      region: p.region,
      ...m,
      providerPermitted: permittedProviderRows.some((r) => r.providerId === p.id),
      permittedId: permittedRows.find((r) => r.providerId === p.id && r.model === m.model)?.id ?? null,
    })),
  )
  return { models, unreachableProviders: providers.filter((_, i) => !lists[i]!.reachable).map((p) => p.id) }
}

/** Permits a model of a permitted provider. The first embedding model becomes the organisation's. */
export async function permitModel(deps: AppDeps, caller: SessionUser, modelId: string) {
  requireAdmin(caller)
  const slash = modelId.indexOf('/')
  const providerId = modelId.slice(0, slash)
  const model = modelId.slice(slash + 1)
  const provider = await findAvailableProvider(deps, caller.organizationId, providerId)
  const permitted = await deps.db.query.permittedProviders.findFirst({
    where: and(eq(permittedProviders.organizationId, caller.organizationId), eq(permittedProviders.providerId, providerId)),
  })
  if (!permitted) fail('PROVIDER_NOT_PERMITTED')
  const known = (await providerModels(deps, caller.organizationId, provider)).models.find((m) => m.model === model)
  if (!known) fail('MODEL_NOT_FOUND')
  const [row] = await deps.db
    .insert(permittedModels)
    .values({ id: crypto.randomUUID(), organizationId: caller.organizationId, providerId, model, embedding: known.embedding })
    .onConflictDoNothing()
    .returning()
  if (!row) fail('MODEL_ALREADY_PERMITTED')
  const settings = await settingsOf(deps, caller.organizationId)
  if (row.embedding && !settings.embeddingModelId) await saveSettings(deps, caller.organizationId, { embeddingModelId: row.id })
  return toPermittedModel(row, provider, await settingsOf(deps, caller.organizationId))
}

export async function unpermitModel(deps: AppDeps, caller: SessionUser, id: string) {
  requireAdmin(caller)
  await findPermittedRow(deps, caller.organizationId, id)
  await deps.db.delete(permittedModels).where(and(eq(permittedModels.id, id), eq(permittedModels.organizationId, caller.organizationId)))
}

export async function permittedLanguageModels(deps: AppDeps, caller: SessionUser) {
  return languageModels(deps, caller)
}

/** Every permitted model of the organisation, with the groups each restricted one is open to. */
export async function allPermittedModels(deps: AppDeps, caller: SessionUser) {
  requireAdmin(caller)
  const models = await usablePermittedModels(deps, caller.organizationId)
  const ids = models.filter((m) => m.restricted).map((m) => m.id)
  const access = ids.length
    ? await deps.db.select().from(modelGroupAccess).where(inArray(modelGroupAccess.modelId, ids))
    : []
  return models.map((m) => ({ ...m, groupIds: access.filter((a) => a.modelId === m.id).map((a) => a.groupId) }))
}

async function adminView(deps: AppDeps, caller: SessionUser, id: string) {
  return (await allPermittedModels(deps, caller)).find((m) => m.id === id) ?? fail('MODEL_NOT_FOUND')
}

/**
 * Opens a language model to every member, or to chosen groups only. The groups are checked
 * first and the change is one transaction: an unknown group changes nothing.
 */
export async function setModelAccess(deps: AppDeps, caller: SessionUser, id: string, input: z.infer<typeof modelAccessBody>) {
  requireAdmin(caller)
  const row = await findPermittedRow(deps, caller.organizationId, id)
  if (row.embedding) fail('NOT_A_LANGUAGE_MODEL')
  const chosen = await groupsOfOrganization(deps, caller.organizationId, input.groupIds)
  await deps.db.batch([
    deps.db.update(permittedModels).set({ restricted: input.restricted }).where(eq(permittedModels.id, row.id)),
    deps.db.delete(modelGroupAccess).where(eq(modelGroupAccess.modelId, row.id)),
    ...(chosen.length ? [deps.db.insert(modelGroupAccess).values(chosen.map((g) => ({ modelId: row.id, groupId: g.id })))] : []),
  ])
  return adminView(deps, caller, row.id)
}

/** Sets the model's price (US dollars per million tokens), or goes back to the catalogue's with `null`. */
export async function setModelPrice(deps: AppDeps, caller: SessionUser, id: string, price: z.infer<typeof modelPriceBody> | null) {
  requireAdmin(caller)
  const row = await findPermittedRow(deps, caller.organizationId, id)
  await deps.db
    .update(permittedModels)
    .set({ priceInput: price?.input ?? null, priceOutput: price?.output ?? null })
    .where(eq(permittedModels.id, row.id))
  return adminView(deps, caller, row.id)
}

export async function effectiveDefault(deps: AppDeps, caller: SessionUser) {
  return resolveDefaultModel(deps, caller)
}

export async function setOrganizationDefault(deps: AppDeps, caller: SessionUser, id: string | null) {
  requireAdmin(caller)
  // Any of the organisation's language models: members outside its groups fall back to the next rule.
  if (id) await usableLanguageModel(deps, caller, id, 'organization')
  await saveSettings(deps, caller.organizationId, { defaultModelId: id })
  return { model: id ? await usableLanguageModel(deps, caller, id, 'organization') : null }
}

export async function userDefault(deps: AppDeps, caller: SessionUser) {
  const own = await deps.db.query.userModelDefaults.findFirst({ where: eq(userModelDefaults.userId, caller.id) })
  const model = own && (await languageModels(deps, caller)).find((m) => m.id === own.modelId)
  return { model: model ?? null }
}

export async function setUserDefault(deps: AppDeps, caller: SessionUser, id: string) {
  const model = await usableLanguageModel(deps, caller, id)
  await deps.db
    .insert(userModelDefaults)
    .values({ userId: caller.id, modelId: id })
    .onConflictDoUpdate({ target: userModelDefaults.userId, set: { modelId: id } })
  return { model }
}

export async function clearUserDefault(deps: AppDeps, caller: SessionUser) {
  await deps.db.delete(userModelDefaults).where(eq(userModelDefaults.userId, caller.id))
}

/** Chooses the organisation's one embedding model (or none). */
export async function setEmbeddingModel(deps: AppDeps, caller: SessionUser, id: string | null) {
  requireAdmin(caller)
  if (id) {
    const model = (await usablePermittedModels(deps, caller.organizationId)).find((m) => m.id === id)
    if (!model) fail('MODEL_NOT_FOUND')
    if (!model.embedding) fail('NOT_AN_EMBEDDING_MODEL')
  }
  await saveSettings(deps, caller.organizationId, { embeddingModelId: id })
  return { model: id ? (await usablePermittedModels(deps, caller.organizationId)).find((m) => m.id === id)! : null }
}

export async function embeddingEnabled(deps: AppDeps, caller: SessionUser) {
  const settings = await settingsOf(deps, caller.organizationId)
  const usable = await usablePermittedModels(deps, caller.organizationId)
  return { isEmbeddingModelEnabled: usable.some((m) => m.id === settings.embeddingModelId) }
}
