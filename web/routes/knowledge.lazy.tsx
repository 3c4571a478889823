import { createLazyRoute } from '@tanstack/react-router'
import { KnowledgePage, KnowledgePageSkeleton } from '../features/knowledge/components/knowledge-page'

export const Route = createLazyRoute('/app/knowledge')({
  pendingComponent: KnowledgePageSkeleton,
  component: KnowledgePage,
})
