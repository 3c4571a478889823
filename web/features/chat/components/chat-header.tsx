import { Pencil } from '../../../components/icons'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { TitleField } from './title-field'

/** The bar above a chat: its title (click to rename), and the pickers at the end. */
export function ChatHeader(props: { title: string; onRename?: (title: string) => Promise<unknown>; children?: ReactNode }) {
  const { t } = useTranslation('chat')
  const [renaming, setRenaming] = useState(false)
  return (
    <header className="flex h-12 shrink-0 items-center gap-2 border-b px-3 sm:px-4">
      {renaming && props.onRename ? (
        <TitleField initial={props.title} label={t('rename.label')} onSave={props.onRename} onDone={() => setRenaming(false)} className="max-w-xl flex-1" />
      ) : (
        <h1 className="min-w-0 flex-1 text-sm font-medium" data-testid="chat-title">
          {props.onRename ? (
            <button
              type="button"
              onClick={() => setRenaming(true)}
              title={t('rename.action')}
              data-print-keep
              className="group/title inline-flex max-w-full items-center gap-1.5 rounded-md px-1 py-0.5 -mx-1 text-left outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span className="truncate">{props.title}</span>
              <Pencil aria-hidden className="size-3.5 shrink-0 text-muted-foreground opacity-0 transition-opacity group-hover/title:opacity-100 group-focus-visible/title:opacity-100" />
            </button>
          ) : (
            <span className="block truncate" title={props.title}>
              {props.title}
            </span>
          )}
        </h1>
      )}
      {props.children}
    </header>
  )
}
