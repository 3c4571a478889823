import { and, eq } from 'drizzle-orm'
import { agents } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'

/** The caller's own agent (threads and chat use it); anyone else's is not found. */
export async function findOwnAgent(deps: AppDeps, caller: SessionUser, id: string) {
  const agent = await deps.db.query.agents.findFirst({ where: and(eq(agents.id, id), eq(agents.userId, caller.id)) })
  return agent ?? fail('AGENT_NOT_FOUND')
}
