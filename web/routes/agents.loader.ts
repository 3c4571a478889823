import { agentQueries } from '../lib/agent-queries'
import { modelListQueries } from '../lib/model-lists'
import type { RouterContext } from '../router-context'

export async function loader({ context }: { context: RouterContext }) {
  await Promise.all([
    context.queryClient.ensureQueryData(agentQueries.list(context.api)),
    context.queryClient.ensureQueryData(modelListQueries.languageModels(context.api)),
  ])
}
