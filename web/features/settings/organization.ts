import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import type { OrganizationView } from '../../../src/api/organization/schema'
import type { ApiClient } from '../../lib/api-client'
import { SESSION_QUERY_KEY, type Me } from '../../lib/session'
import { useApi } from '../../lib/use-api'

export type Organization = OrganizationView

export const organizationQueries = {
  get: (api: ApiClient) => queryOptions({ queryKey: ['organization'], queryFn: () => api.get<Organization>('/organization') }),
}

/** Renames the organisation; the shell (which reads `me`) shows the new name at once. */
export function useRenameOrganization() {
  const api = useApi()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (name: string) => api.patch<Organization>('/organization', { name }),
    onSuccess: (organization) => {
      queryClient.setQueryData(organizationQueries.get(api).queryKey, organization)
      queryClient.setQueryData<Me>(SESSION_QUERY_KEY, (me) => me && { ...me, organization: { id: organization.id, name: organization.name } })
    },
  })
}
