import { createLazyRoute } from '@tanstack/react-router'
import { GroupsPage, GroupsPageSkeleton } from '../features/groups/components/groups-page'

export const Route = createLazyRoute('/app/admin-settings/groups')({
  pendingComponent: GroupsPageSkeleton,
  component: GroupsPage,
})
