import { promptQueries } from '../features/prompts/api'
import type { RouterContext } from '../router-context'

export const loader = ({ context, location }: { context: RouterContext; location: { search: { search?: string } } }) =>
  context.queryClient.ensureQueryData(promptQueries.list(context.api, location.search.search))
