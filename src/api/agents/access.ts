import { and, asc, eq, inArray } from 'drizzle-orm'
import { agents, users } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { AppError, fail } from '../../lib/errors'

/** The caller's own agent (threads and chat use it); anyone else's is not found. */
export async function findOwnAgent(deps: AppDeps, caller: SessionUser, id: string) {
  const agent = await deps.db.query.agents.findFirst({ where: and(eq(agents.id, id), eq(agents.userId, caller.id)) })
  return agent ?? fail('AGENT_NOT_FOUND')
}

/** One of the caller's agents by its id or its name (case ignored), or null. */
export async function ownAgentByIdOrName(deps: AppDeps, caller: SessionUser, idOrName: string) {
  const own = await deps.db.query.agents.findMany({ where: and(eq(agents.userId, caller.id), eq(agents.organizationId, caller.organizationId)) })
  return own.find((a) => a.id === idOrName) ?? own.find((a) => a.name.toLocaleLowerCase() === idOrName.toLocaleLowerCase()) ?? null
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
