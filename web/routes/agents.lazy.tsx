import { createLazyRoute } from '@tanstack/react-router'
import { AgentsPage, AgentsPageSkeleton } from '../features/agents/components/agents-page'

// The skeleton comes with the page's chunk, so it never waits for code of its own (a pending view
// that has to load first would blank the whole window while it does).
export const Route = createLazyRoute('/app/agents')({
  pendingComponent: AgentsPageSkeleton,
  component: AgentsPage,
})
