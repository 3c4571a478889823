import { recordAudit, type AuditFrom } from '../audit/access'
import { and, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { modelEndpoints, permittedModels, permittedProviders } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { requireAdmin } from '../../lib/guards'
import { checkOutboundUrl, OutboundError, serverPolicy } from '../../lib/outbound'
import { ENDPOINT_PREFIX } from './access'
import { encryptEndpointKey } from './endpoint-keys'
import type { createEndpointBody } from './schema'


const toView = (e: typeof modelEndpoints.$inferSelect) => ({
  id: e.id,
  providerId: `${ENDPOINT_PREFIX}${e.id}`,
  name: e.name,
  baseUrl: e.baseUrl,
  hasApiKey: Boolean(e.apiKeyEncrypted),
})

export async function listEndpoints(deps: AppDeps, caller: SessionUser) {
  requireAdmin(caller)
  const rows = await deps.db.query.modelEndpoints.findMany({ where: eq(modelEndpoints.organizationId, caller.organizationId) })
  return rows.map(toView)
}

/**
 * Adds the organisation's own OpenAI-compatible endpoint. The key is encrypted with the
 * instance secret and never sent back. The address must be public (checked after DNS, and again
 * for every request by the guarded client) unless the operator allowed its host with
 * KONTOR_FETCH_ALLOWED_HOSTS.
 */
export async function createEndpoint(deps: AppDeps, caller: SessionUser, input: z.infer<typeof createEndpointBody>, from: AuditFrom) {
  requireAdmin(caller)
  const url = new URL(input.baseUrl)
  if (url.username || url.password) fail('INVALID_ENDPOINT_URL', { fields: { baseUrl: 'Put credentials in the API key field' } })
  await checkOutboundUrl(serverPolicy(deps), url.href).catch((error: unknown) => {
    if (!(error instanceof OutboundError)) throw error
    const baseUrl = error.reason === 'host-not-found' ? 'The host name could not be found' : 'Private addresses are not allowed'
    fail('INVALID_ENDPOINT_URL', { fields: { baseUrl } })
  })
  const [row] = await deps.db
    .insert(modelEndpoints)
    .values({
      id: crypto.randomUUID(),
      organizationId: caller.organizationId,
      name: input.name,
      baseUrl: input.baseUrl.replace(/\/$/, ''),
      apiKeyEncrypted: input.apiKey ? await encryptEndpointKey(deps, input.apiKey) : null,
    })
    .returning()
  await recordAudit(deps, caller, from, { action: 'endpoint.created', target: { type: 'endpoint', id: row!.id, label: row!.name }, details: { baseUrl: row!.baseUrl } })
  return toView(row!)
}

/** Removes an endpoint with its permission and permitted models (defaults are cleared). */
export async function deleteEndpoint(deps: AppDeps, caller: SessionUser, id: string, from: AuditFrom) {
  requireAdmin(caller)
  const providerId = `${ENDPOINT_PREFIX}${id}`
  const removed = await deps.db.transaction(async (tx) => {
    const removed = await tx
      .delete(modelEndpoints)
      .where(and(eq(modelEndpoints.id, id), eq(modelEndpoints.organizationId, caller.organizationId)))
      .returning()
    if (!removed.length) fail('ENDPOINT_NOT_FOUND')
    await tx.delete(permittedModels).where(and(eq(permittedModels.organizationId, caller.organizationId), eq(permittedModels.providerId, providerId)))
    await tx
      .delete(permittedProviders)
      .where(and(eq(permittedProviders.organizationId, caller.organizationId), eq(permittedProviders.providerId, providerId)))
    return removed[0]!
  })
  await recordAudit(deps, caller, from, { action: 'endpoint.removed', target: { type: 'endpoint', id, label: removed.name }, details: { baseUrl: removed.baseUrl } })
}
