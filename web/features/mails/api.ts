import { queryOptions } from '@tanstack/react-query'
import type { OutboxMail } from '../../../src/api/outbox/schema'
import type { ApiClient } from '../../lib/api-client'

export type { OutboxMail }

export const mailQueries = {
  // Mails arrive while the admin follows a flow in another tab: asked again on every visit and focus.
  outbox: (api: ApiClient) => queryOptions({ queryKey: ['outbox'], queryFn: () => api.get<OutboxMail[]>('/dev/outbox'), staleTime: 0 }),
}
