import { createLazyRoute } from '@tanstack/react-router'
import { ModelsPage, ModelsPageSkeleton } from '../features/models/components/models-page'

// The skeleton comes with the page's chunk, so it never waits for code of its own (a pending view
// that has to load first would blank the whole window while it does).
export const Route = createLazyRoute('/app/admin-settings/models')({
  pendingComponent: ModelsPageSkeleton,
  component: ModelsPage,
})
