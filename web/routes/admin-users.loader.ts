import { inviteQueries, memberQueries } from '../features/members/api'
import type { RouterContext } from '../router-context'

export async function loader({ context }: { context: RouterContext }) {
  await Promise.all([
    context.queryClient.ensureQueryData(memberQueries.list(context.api)),
    context.queryClient.ensureQueryData(inviteQueries.list(context.api)),
  ])
}
