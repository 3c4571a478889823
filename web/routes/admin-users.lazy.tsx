import { createLazyRoute } from '@tanstack/react-router'
import { MembersPage, MembersPageSkeleton } from '../features/members/components/members-page'

// The skeleton comes with the page's chunk, so it never waits for code of its own (a pending view
// that has to load first would blank the whole window while it does).
export const Route = createLazyRoute('/app/admin-settings/users')({
  pendingComponent: MembersPageSkeleton,
  component: MembersPage,
})
