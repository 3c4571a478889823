import { collectionQueries } from '../lib/collection-queries'
import type { RouterContext } from '../router-context'

export const loader = ({ context }: { context: RouterContext }) => context.queryClient.ensureQueryData(collectionQueries.list(context.api))
