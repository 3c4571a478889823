import { DropdownMenu } from 'radix-ui'
import { ListChecks, MoreHorizontal, Pencil, Pin, PinOff, Trash2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { pickerItem } from './picker-menu'

export type ChatItemAction = 'rename' | 'pin' | 'unpin' | 'select' | 'delete'

/** The "…" menu of a chat in the sidebar: rename, pin or unpin, select several, delete. */
export function ChatItemMenu(props: { title: string; pinned: boolean; onAction: (action: ChatItemAction) => void; keepFocus: () => boolean }) {
  const { t } = useTranslation('chat')
  const item = (action: ChatItemAction, icon: ReactNode, label: string, destructive = false) => (
    <DropdownMenu.Item
      onSelect={() => props.onAction(action)}
      className={`${pickerItem} items-center pr-3 [&_svg]:size-4 [&_svg]:shrink-0 ${destructive ? 'text-destructive data-[highlighted]:text-destructive' : ''}`}
    >
      {icon}
      {label}
    </DropdownMenu.Item>
  )
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label={`${t('actions.menu')}: ${props.title}`}
        title={t('actions.menu')}
        className="absolute right-1 top-1/2 grid size-6 -translate-y-1/2 place-items-center rounded text-sidebar-muted-foreground opacity-0 outline-none transition-opacity hover:bg-background hover:text-sidebar-foreground focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring group-hover/chat:opacity-100 group-focus-within/chat:opacity-100 data-[state=open]:opacity-100 pointer-coarse:opacity-100 [&_svg]:size-3.5"
      >
        <MoreHorizontal aria-hidden />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          // Renaming puts a field where the chat's link was: focus stays in it, not on this button.
          onCloseAutoFocus={(e) => props.keepFocus() && e.preventDefault()}
          className="z-50 min-w-44 rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
        >
          {item('rename', <Pencil aria-hidden />, t('actions.rename'))}
          {props.pinned ? item('unpin', <PinOff aria-hidden />, t('actions.unpin')) : item('pin', <Pin aria-hidden />, t('actions.pin'))}
          {item('select', <ListChecks aria-hidden />, t('actions.select'))}
          <DropdownMenu.Separator className="-mx-1 my-1 h-px bg-border" />
          {item('delete', <Trash2 aria-hidden />, t('actions.delete'), true)}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  )
}
