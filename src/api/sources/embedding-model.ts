import type { AppDeps } from '../../lib/context'
import { settingsOf, usablePermittedModels } from '../models/access'

/** The organisation's embedding model if it is set and usable, else null. */
export async function embeddingModelOf(deps: AppDeps, organizationId: string) {
  const [settings, usable] = await Promise.all([settingsOf(deps, organizationId), usablePermittedModels(deps, organizationId)])
  return usable.find((m) => m.id === settings.embeddingModelId && m.embedding) ?? null
}
