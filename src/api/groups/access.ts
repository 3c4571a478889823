import { and, eq, inArray } from 'drizzle-orm'
import { groups } from '../../../db/schema'
import type { AppDeps } from '../../lib/context'
import { AppError } from '../../lib/errors'

/** The group lookups other domains need (models: which groups a model is open to). */

/**
 * The given groups, all of the organisation, or a validation error naming the field: an unknown
 * id (or one of another organisation) is refused before anything changes.
 */
export async function groupsOfOrganization(deps: AppDeps, organizationId: string, ids: string[], field = 'groupIds') {
  const unique = [...new Set(ids)]
  if (!unique.length) return []
  const found = await deps.db
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(and(eq(groups.organizationId, organizationId), inArray(groups.id, unique)))
  if (found.length !== unique.length) throw new AppError('VALIDATION_FAILED', { fields: { [field]: 'Unknown group' } })
  return found
}
