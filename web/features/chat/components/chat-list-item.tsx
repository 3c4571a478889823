import { Link } from '@tanstack/react-router'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useChangeThread } from '../hooks/use-change-thread'
import type { ThreadSummary } from '../api'
import { ChatItemMenu, type ChatItemAction } from './chat-item-menu'
import { TitleField } from './title-field'

const row = 'flex h-8 w-full min-w-0 items-center rounded-md text-[13.5px] text-sidebar-foreground/85'

/**
 * A chat in the sidebar: its link with a menu (rename, pin, select, delete); a field while it is
 * renamed; a checkbox while several chats are chosen.
 */
export function ChatListItem(props: {
  thread: ThreadSummary
  active: boolean
  onNavigate?: () => void
  /** Set while chats are chosen to delete several: whether this one is. */
  selected?: boolean
  onToggle: (id: string) => void
  onSelectMode: (id: string) => void
  onDelete: (id: string, title: string) => void
}) {
  const { t } = useTranslation()
  const changeThread = useChangeThread()
  const [renaming, setRenaming] = useState(false)
  const renamingNow = useRef(false)
  const { thread } = props
  const title = thread.title ?? t('chat:untitled')

  const onAction = (action: ChatItemAction) => {
    if (action === 'rename') {
      renamingNow.current = true
      setRenaming(true)
    } else if (action === 'pin' || action === 'unpin') void changeThread(thread.id, { pinned: action === 'pin' }).catch(() => {})
    else if (action === 'select') props.onSelectMode(thread.id)
    else props.onDelete(thread.id, title)
  }

  if (props.selected !== undefined) {
    return (
      <li className="min-w-0">
        <label className={`${row} cursor-pointer gap-2 px-2.5 hover:bg-sidebar-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-inset has-[:focus-visible]:ring-ring`}>
          <input type="checkbox" checked={props.selected} onChange={() => props.onToggle(thread.id)} className="size-3.5 shrink-0 accent-primary outline-none" />
          <span className="min-w-0 truncate">{title}</span>
        </label>
      </li>
    )
  }

  if (renaming) {
    return (
      <li className="min-w-0 px-0.5">
        <TitleField
          initial={thread.title ?? ''}
          label={t('chat:rename.label')}
          onSave={(newTitle) => changeThread(thread.id, { title: newTitle })}
          onDone={() => {
            renamingNow.current = false
            setRenaming(false)
          }}
          className="h-8 text-[13.5px]"
        />
      </li>
    )
  }

  return (
    <li className="group/chat relative min-w-0">
      <Link
        to="/chats/$threadId"
        params={{ threadId: thread.id }}
        onClick={props.onNavigate}
        data-active={props.active ? 'true' : undefined}
        aria-current={props.active ? 'page' : undefined}
        title={title}
        className={`${row} pl-2.5 pr-8 outline-none transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring data-[active=true]:bg-sidebar-accent data-[active=true]:font-medium data-[active=true]:text-sidebar-accent-foreground`}
      >
        <span className="min-w-0 truncate">{title}</span>
      </Link>
      <ChatItemMenu title={title} pinned={thread.pinnedAt !== null} onAction={onAction} keepFocus={() => renamingNow.current} />
    </li>
  )
}
