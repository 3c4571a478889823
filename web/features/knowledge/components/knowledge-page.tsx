import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { Library } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/empty-state'
import { LibraryPage, LibraryPageSkeleton } from '../../../components/library-page'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogHeader } from '../../../components/ui/dialog'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { Skeleton } from '../../../components/ui/skeleton'
import { Textarea } from '../../../components/ui/textarea'
import { collectionQueries, type Collection } from '../../../lib/collection-queries'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { knowledgeApi, useCollectionsMutation } from '../api'

/** /knowledge: the user's collections and those shared with them, and the dialog to create one. */
export function KnowledgePage() {
  const { t } = useTranslation('knowledge')
  const api = useApi()
  const [creating, setCreating] = useState(false)
  const list = useQuery(collectionQueries.list(api)).data ?? []
  const mine = list.filter((c) => c.role === 'owner')
  const shared = list.filter((c) => c.role !== 'owner')

  return (
    <LibraryPage title={t('title')} description={t('description')} newLabel={t('new')} onNew={() => setCreating(true)}>
      <CollectionSection title={t('mine')} collections={mine} empty={<EmptyState icon={<Library />} title={t('emptyMine.title')} text={t('emptyMine.text')} />} />
      <CollectionSection title={t('shared')} collections={shared} empty={<p className="text-sm text-muted-foreground">{t('emptyShared')}</p>} />
      <CreateCollectionDialog open={creating} onOpenChange={setCreating} />
    </LibraryPage>
  )
}

function CollectionSection(props: { title: string; collections: Collection[]; empty: React.ReactNode }) {
  const { t } = useTranslation('knowledge')
  return (
    <section className="grid gap-3">
      <h2 className="text-sm font-medium text-muted-foreground">{props.title}</h2>
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
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate(
      { name, description: description || null },
      {
        onSuccess: (c) => {
          props.onOpenChange(false)
          setName('')
          setDescription('')
          void navigate({ to: '/knowledge/$collectionId', params: { collectionId: c.id } })
        },
      },
    )
  }
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent closeLabel={t('close')}>
        <DialogHeader title={t('create.title')} description={t('create.description')} />
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor="collection-name">{t('fields.name')}</Label>
            <Input id="collection-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} required autoFocus />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="collection-description">{t('fields.description')}</Label>
            <Textarea id="collection-description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={1000} rows={3} />
          </div>
          {create.error && (
            <p role="alert" className="text-sm text-destructive">
              {errorMessage(t, create.error)}
            </p>
          )}
          <Button type="submit" disabled={create.isPending || !name.trim()}>
            {t('create.submit')}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
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
