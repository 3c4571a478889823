import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm'
import { agentGroups, agents, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'
import { sharedWithGroupOf } from '../groups/access'

// The outer row's id in the correlated subquery, always with its table (see knowledge/access.ts).
const outerAgentId = sql`${sql.identifier('agents')}.${sql.identifier('id')}`
/** Where an agent's group shares are. */
export const agentShareLink = { table: agentGroups, item: agentGroups.agentId, group: agentGroups.groupId }

/**
 * The agents a user may use, as a condition on `agents`: their own, those shared with the whole
 * organisation and those shared with a group the user belongs to; never another organisation's.
 * The values may be placeholders of a prepared statement.
 */
export function agentsReadableBy(userId: unknown, organizationId: unknown): SQL {
  return and(
    eq(agents.organizationId, organizationId as string),
    or(
      eq(agents.userId, userId as string),
      eq(agents.sharedWithOrganization, true),
      sharedWithGroupOf(agentShareLink, outerAgentId, userId),
    ),
  )!
}

/**
 * An agent the caller may use (threads and chat use it: their own or one shared with them). Without
 * access it is not found; with `owner`, an agent shared with the caller is forbidden (read-only).
 */
export async function findAgent(deps: AppDeps, caller: SessionUser, id: string, needOwner = false) {
  const [row] = await deps.db.select({ agent: agents }).from(agents).where(and(eq(agents.id, id), agentsReadableBy(caller.id, caller.organizationId)))
  if (!row) fail('AGENT_NOT_FOUND')
  if (needOwner && row.agent.userId !== caller.id) fail('FORBIDDEN')
  return row.agent
}

/** An agent the caller may use (own or shared with them) by its id or its name (case ignored; their own first), or null. */
export async function usableAgentByIdOrName(deps: AppDeps, caller: SessionUser, idOrName: string) {
  const rows = await deps.db.select({ agent: agents }).from(agents).where(agentsReadableBy(caller.id, caller.organizationId))
  const usable = rows.map((r) => r.agent).sort((a, b) => Number(b.userId === caller.id) - Number(a.userId === caller.id))
  return usable.find((a) => a.id === idOrName) ?? usable.find((a) => a.name.toLocaleLowerCase() === idOrName.toLocaleLowerCase()) ?? null
}

/** Every agent of the organisation with its owner's name (admins choose agents that get a tool). */
export async function agentsOfOrganization(deps: AppDeps, organizationId: string) {
  return deps.db
    .select({ id: agents.id, name: agents.name, ownerName: users.name })
    .from(agents)
    .innerJoin(users, eq(users.id, agents.userId))
    .where(eq(agents.organizationId, organizationId))
    .orderBy(asc(agents.name), asc(users.name))
}

/** The given agents of the organisation, or a validation error naming the field when one is unknown (or another organisation's). */
export async function agentIdsOfOrganization(deps: AppDeps, organizationId: string, ids: string[], field = 'agentIds') {
  const unique = [...new Set(ids)]
  if (!unique.length) return []
  const found = await deps.db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.organizationId, organizationId), inArray(agents.id, unique)))
  if (found.length !== unique.length) throw new AppError('VALIDATION_FAILED', { fields: { [field]: 'Unknown agent' } })
  return unique
}
