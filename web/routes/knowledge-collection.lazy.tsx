import { createLazyRoute, useParams } from '@tanstack/react-router'
import { CollectionPage } from '../features/knowledge/components/collection-page'

export const Route = createLazyRoute('/app/knowledge/$collectionId')({
  component: function KnowledgeCollectionPage() {
    const { collectionId } = useParams({ from: '/app/knowledge/$collectionId' })
    return <CollectionPage collectionId={collectionId} />
  },
})
