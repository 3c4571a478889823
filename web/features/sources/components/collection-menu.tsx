import { useQuery } from '@tanstack/react-query'
import { Check } from '../../../components/icons'
import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import { useState, type ReactElement, type Ref } from 'react'
import { useTranslation } from 'react-i18next'
import { collectionQueries, type AttachedCollection } from '../../../lib/collection-queries'
import { useApi } from '../../../lib/use-api'

/** The list of the user's collections to attach to the chat (Radix), loaded on first use by CollectionPicker. */
export function CollectionMenu(props: {
  trigger: ReactElement
  triggerRef: Ref<HTMLElement>
  attached: AttachedCollection[]
  onToggle: (id: string, attach: boolean) => void
}) {
  const { t } = useTranslation('sources')
  const api = useApi()
  // Read when the menu first opens: most chats never open it.
  const [opened, setOpened] = useState(false)
  const list = useQuery({ ...collectionQueries.list(api), enabled: opened }).data
  const attachedIds = new Set(props.attached.map((c) => c.id))
  return (
    <DropdownMenu.Root onOpenChange={(open) => open && setOpened(true)}>
      <DropdownMenu.Trigger asChild ref={props.triggerRef as Ref<HTMLButtonElement>}>
        {props.trigger}
      </DropdownMenu.Trigger>
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
