import type { ReactNode } from 'react'

/** The bar above a chat: its title, and the model picker at the end. */
export function ChatHeader(props: { title: string; children?: ReactNode }) {
  return (
    <header className="flex h-12 shrink-0 items-center gap-2 border-b px-3 sm:px-4">
      <h1 className="min-w-0 flex-1 truncate text-sm font-medium" data-testid="chat-title" title={props.title}>
        {props.title}
      </h1>
      {props.children}
    </header>
  )
}
