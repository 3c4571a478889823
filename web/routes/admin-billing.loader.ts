import { billingQueries } from '../features/billing/api'
import type { RouterContext } from '../router-context'

export async function loader({ context }: { context: RouterContext }) {
  await Promise.all([
    context.queryClient.ensureQueryData(billingQueries.subscription(context.api)),
    context.queryClient.ensureQueryData(billingQueries.price(context.api)),
  ])
}
