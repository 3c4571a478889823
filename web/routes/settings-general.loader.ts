import { modelQueries } from '../features/models/api'
import { modelListQueries } from '../lib/model-lists'
import type { RouterContext } from '../router-context'

export async function loader({ context }: { context: RouterContext }) {
  await Promise.all([
    context.queryClient.ensureQueryData(modelListQueries.languageModels(context.api)),
    context.queryClient.ensureQueryData(modelQueries.userDefault(context.api)),
  ])
}
