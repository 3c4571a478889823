import { MoreHorizontal } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { OnDemandTrigger } from '../../../lib/on-demand'
import type { ChatItemAction } from './chat-menus'
import { chatMenus } from './chat-menus-part'

export type { ChatItemAction } from './chat-menus'

/** The "…" menu of a chat in the sidebar: rename, pin or unpin, select several, delete. */
export function ChatItemMenu(props: { title: string; pinned: boolean; onAction: (action: ChatItemAction) => void; keepFocus: () => boolean }) {
  const { t } = useTranslation('chat')
  const trigger = (
    <button
      type="button"
      aria-label={`${t('actions.menu')}: ${props.title}`}
      title={t('actions.menu')}
      className="absolute right-1 top-1/2 grid size-6 -translate-y-1/2 place-items-center rounded text-sidebar-muted-foreground opacity-0 outline-none transition-opacity hover:bg-background hover:text-sidebar-foreground focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring group-hover/chat:opacity-100 group-focus-within/chat:opacity-100 data-[state=open]:opacity-100 pointer-coarse:opacity-100 [&_svg]:size-3.5"
    >
      <MoreHorizontal aria-hidden />
    </button>
  )
  return (
    <OnDemandTrigger
      part={chatMenus}
      opens="menu"
      trigger={trigger}
      render={(parts, triggerRef) => (
        <parts.ChatItemMenuPart trigger={trigger} triggerRef={triggerRef} pinned={props.pinned} onAction={props.onAction} keepFocus={props.keepFocus} />
      )}
    />
  )
}
