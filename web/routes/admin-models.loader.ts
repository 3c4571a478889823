import { modelQueries } from '../features/models/api'
import type { RouterContext } from '../router-context'

export async function loader({ context }: { context: RouterContext }) {
  await Promise.all([
    context.queryClient.ensureQueryData(modelQueries.providers(context.api)),
    context.queryClient.ensureQueryData(modelQueries.available(context.api)),
    context.queryClient.ensureQueryData(modelQueries.permitted(context.api)),
    context.queryClient.ensureQueryData(modelQueries.endpoints(context.api)),
  ])
}
