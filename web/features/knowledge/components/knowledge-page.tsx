import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { Library } from '../../../components/icons'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/empty-state'
import { LibraryPage, LibraryPageSkeleton } from '../../../components/library-page'
import { Input } from '../../../components/ui/input'
import { Skeleton } from '../../../components/ui/skeleton'
import { collectionQueries, type Collection } from '../../../lib/collection-queries'
import { useApi } from '../../../lib/use-api'
import { knowledgeApi, useCollectionsMutation } from '../api'
import { CollectionDialog } from './collection-dialog'

/** /knowledge: the user's collections and those shared with them, and the dialog to create one. */
export function KnowledgePage() {
  const { t } = useTranslation('knowledge')
  const api = useApi()
  const [creating, setCreating] = useState(false)
  const [search, setSearch] = useState('')
  const all = useQuery(collectionQueries.list(api)).data ?? []
  // Searched by name and description, in the reader's language's case rules.
  const words = search.toLocaleLowerCase().split(/\s+/).filter(Boolean)
  const list = all.filter((c) => words.every((w) => `${c.name} ${c.description ?? ''}`.toLocaleLowerCase().includes(w)))
  const mine = list.filter((c) => c.role === 'owner')
  const shared = list.filter((c) => c.role !== 'owner')

  return (
    <LibraryPage title={t('title')} description={t('description')} newLabel={t('new')} onNew={() => setCreating(true)}>
      {all.length > 0 && (
        <Input type="search" aria-label={t('search')} placeholder={t('search')} value={search} onChange={(e) => setSearch(e.target.value)} className="max-w-sm" />
      )}
      {words.length > 0 && list.length === 0 && <p className="text-sm text-muted-foreground">{t('noMatch', { search })}</p>}
      <CollectionSection title={t('mine')} collections={mine} empty={<EmptyState icon={<Library />} title={t('emptyMine.title')} text={t('emptyMine.text')} />} />
      <CollectionSection title={t('shared')} collections={shared} empty={<p className="text-sm text-muted-foreground">{t('emptyShared')}</p>} />
      <CreateCollectionDialog open={creating} onOpenChange={setCreating} />
    </LibraryPage>
  )
}

function CollectionSection(props: { title: string; collections: Collection[]; empty: React.ReactNode }) {
  const { t } = useTranslation('knowledge')
  const heading = useId()
  return (
    <section aria-labelledby={heading} className="grid gap-3">
      <h2 id={heading} className="text-sm font-medium text-muted-foreground">
        {props.title}
      </h2>
      {props.collections.length === 0 ? (
        props.empty
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {props.collections.map((c) => (
            <li key={c.id}>
              <Link
                to="/knowledge/$collectionId"
                params={{ collectionId: c.id }}
                data-testid="collection-card"
                className="grid gap-1 rounded-xl border p-4 outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span className="truncate font-medium">{c.name}</span>
                {c.description && <span className="line-clamp-2 text-sm text-muted-foreground">{c.description}</span>}
                <span className="text-xs text-muted-foreground">
                  {t('files', { count: c.files })} · {t(`role.${c.role}`)}
                  {c.role !== 'owner' && ` · ${c.owner.name}`}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function CreateCollectionDialog(props: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('knowledge')
  const navigate = useNavigate()
  const create = useCollectionsMutation(knowledgeApi.create)
  return (
    <CollectionDialog
      open={props.open}
      onOpenChange={props.onOpenChange}
      title={t('create.title')}
      description={t('create.description')}
      submitLabel={t('create.submit')}
      pending={create.isPending}
      error={create.error}
      onSubmit={(details) =>
        create.mutate(details, {
          onSuccess: (c) => {
            props.onOpenChange(false)
            void navigate({ to: '/knowledge/$collectionId', params: { collectionId: c.id } })
          },
        })
      }
    />
  )
}

/** /knowledge while its list loads. */
export function KnowledgePageSkeleton() {
  const { t } = useTranslation('knowledge')
  return (
    <LibraryPageSkeleton title={t('title')} description={t('description')}>
      <Skeleton className="h-24 w-full" />
    </LibraryPageSkeleton>
  )
}
