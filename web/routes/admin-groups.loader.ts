import { groupQueries } from '../features/groups/api'
import type { RouterContext } from '../router-context'

export async function loader({ context }: { context: RouterContext }) {
  await Promise.all([
    context.queryClient.ensureQueryData(groupQueries.list(context.api)),
    context.queryClient.ensureQueryData(groupQueries.members(context.api)),
  ])
}
