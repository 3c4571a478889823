import { mailQueries } from '../features/mails/api'
import type { RouterContext } from '../router-context'

export const loader = ({ context }: { context: RouterContext }) => context.queryClient.ensureQueryData(mailQueries.outbox(context.api))
