import { createLazyRoute } from '@tanstack/react-router'
import { PromptsPage, PromptsPageSkeleton } from '../features/prompts/components/prompts-page'

export const Route = createLazyRoute('/app/prompts')({
  pendingComponent: PromptsPageSkeleton,
  component: PromptsRoute,
})

function PromptsRoute() {
  const { search = '' } = Route.useSearch()
  const navigate = Route.useNavigate()
  return <PromptsPage search={search} onSearchChange={(next) => navigate({ search: { search: next.trim() ? next : undefined }, replace: true })} />
}
