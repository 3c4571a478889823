import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Check, Library, X } from 'lucide-react'
import { DropdownMenu } from 'radix-ui'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Tooltip } from '../../../components/ui/tooltip'
import { collectionQueries, type AttachedCollection } from '../../../lib/collection-queries'
import { errorMessage } from '../../../lib/error-message'
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

/** The composer's button that lists the user's collections to attach to the chat. */
export function CollectionPicker(props: { attached: AttachedCollection[]; onToggle: (id: string, attach: boolean) => void }) {
  const { t } = useTranslation('sources')
  const api = useApi()
  // Read when the menu first opens: most chats never open it.
  const [opened, setOpened] = useState(false)
  const list = useQuery({ ...collectionQueries.list(api), enabled: opened }).data
  const attachedIds = new Set(props.attached.map((c) => c.id))
  return (
    <DropdownMenu.Root onOpenChange={(open) => open && setOpened(true)}>
      <Tooltip label={t('collections.label')} side="top">
        <DropdownMenu.Trigger
          aria-label={t('collections.label')}
          data-testid="attach-collection"
          className="grid size-8 shrink-0 place-items-center rounded-full text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring"
        >
          <Library aria-hidden className="size-4" />
        </DropdownMenu.Trigger>
      </Tooltip>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={6}
          className="z-50 max-h-[min(24rem,var(--radix-dropdown-menu-content-available-height))] w-72 max-w-[calc(100vw-1.5rem)] overflow-y-auto rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
        >
          <DropdownMenu.Label className="px-2 pb-1 pt-1.5 text-xs font-medium text-muted-foreground">{t('collections.label')}</DropdownMenu.Label>
          {list && !list.length && <p className="px-2 py-1.5 text-sm text-muted-foreground">{t('collections.none')}</p>}
          {list?.map((c) => (
            <DropdownMenu.CheckboxItem
              key={c.id}
              checked={attachedIds.has(c.id)}
              onCheckedChange={(checked) => props.onToggle(c.id, checked === true)}
              className="relative flex cursor-default select-none items-start gap-2 rounded-md py-1.5 pl-2 pr-8 text-sm outline-none data-[highlighted]:bg-accent data-[highlighted]:text-accent-foreground"
            >
              <span className="min-w-0 flex-1 truncate">{c.name}</span>
              <span className="shrink-0 text-xs text-muted-foreground">{t('collections.files', { count: c.readyFiles })}</span>
              <DropdownMenu.ItemIndicator className="absolute right-2 top-2">
                <Check aria-hidden className="size-4" />
              </DropdownMenu.ItemIndicator>
            </DropdownMenu.CheckboxItem>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
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
