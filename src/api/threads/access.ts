import type { threads } from '../../../db/schema'
import type { AppDeps, SessionUser } from '../../lib/context'
import { fail } from '../../lib/errors'
import { findOwnAgent } from '../agents/access'
import { usableLanguageModel } from '../models/access'

type ThreadRow = typeof threads.$inferSelect

/** The thread lookups other domains need (chat). */

/** The model a thread's next reply uses: its agent's (which wins), else its own. */
export async function replyModel(deps: AppDeps, caller: SessionUser, thread: ThreadRow) {
  const agent = thread.agentId ? await findOwnAgent(deps, caller, thread.agentId) : null
  const modelId = agent ? agent.modelId : thread.modelId
  if (!modelId) fail('NO_MODEL_FOUND')
  try {
    return { model: await usableLanguageModel(deps, caller, modelId), agent }
  } catch {
    // The model was unpermitted (or its provider went away) since the thread or agent chose it.
    return fail('NO_MODEL_FOUND')
  }
}
