import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Library, X } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Tooltip } from '../../../components/ui/tooltip'
import { collectionQueries, type AttachedCollection } from '../../../lib/collection-queries'
import { errorMessage } from '../../../lib/error-message'
import { onDemand, OnDemandTrigger } from '../../../lib/on-demand'
import { useApi } from '../../../lib/use-api'

const path = (threadId: string, collectionId: string) => `/threads/${encodeURIComponent(threadId)}/collections/${encodeURIComponent(collectionId)}`

/** Attaches or detaches knowledge collections the user may read; the chat's source_query searches them. */
export function useThreadCollections(threadId: string) {
  const { t } = useTranslation('sources')
  const api = useApi()
  const queryClient = useQueryClient()
  const attached = useQuery(collectionQueries.ofThread(api, threadId)).data ?? []
  const change = useMutation({
    mutationFn: ({ id, attach }: { id: string; attach: boolean }) =>
      attach ? api.put<AttachedCollection[]>(path(threadId, id)) : api.delete<AttachedCollection[]>(path(threadId, id)),
    onSuccess: (list) => queryClient.setQueryData(collectionQueries.ofThread(api, threadId).queryKey, list),
    onError: (error) => toast.error(t('collections.failed'), { description: errorMessage(t, error) }),
  })
  return { attached, toggle: (id: string, attach: boolean) => change.mutate({ id, attach }) }
}

// The list (Radix DropdownMenu) loads when the button is first hovered, focused or pressed.
const collectionMenu = onDemand(() => import('./collection-menu'))

/** The composer's button that lists the user's collections to attach to the chat. */
export function CollectionPicker(props: { attached: AttachedCollection[]; onToggle: (id: string, attach: boolean) => void }) {
  const { t } = useTranslation('sources')
  // The tooltip passes the menu trigger's props and ref on to the button.
  const trigger = (
    <Tooltip label={t('collections.label')} side="top">
      <button
        type="button"
        aria-label={t('collections.label')}
        data-testid="attach-collection"
        className="grid size-8 shrink-0 place-items-center rounded-full text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        <Library aria-hidden className="size-4" />
      </button>
    </Tooltip>
  )
  return (
    <OnDemandTrigger
      part={collectionMenu}
      opens="menu"
      trigger={trigger}
      render={(parts, triggerRef) => (
        <parts.CollectionMenu trigger={trigger} triggerRef={triggerRef} attached={props.attached} onToggle={props.onToggle} />
      )}
    />
  )
}

/** The collections attached to the chat, as chips above the message field. */
export function CollectionChips(props: { attached: AttachedCollection[]; onDetach: (id: string) => void }) {
  const { t } = useTranslation('sources')
  if (!props.attached.length) return null
  return (
    <ul aria-label={t('collections.attached')} className="flex flex-wrap gap-1.5 px-3 pt-2">
      {props.attached.map((c) => (
        <li key={c.id} data-testid="collection-chip" className="inline-flex max-w-60 items-center gap-1 rounded-full border bg-muted/50 py-0.5 pl-2 pr-1 text-xs">
          <Library aria-hidden className="size-3 shrink-0" />
          <span className="truncate">{c.name}</span>
          <button
            type="button"
            aria-label={t('collections.detach', { name: c.name })}
            onClick={() => props.onDetach(c.id)}
            className="grid size-4 place-items-center rounded-full hover:bg-accent"
          >
            <X aria-hidden className="size-3" />
          </button>
        </li>
      ))}
    </ul>
  )
}
