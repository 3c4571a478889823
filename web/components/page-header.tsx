import type { ReactNode } from 'react'

/** The title of a list page (Prompts, Agents) with what it is for and its main action. */
export function PageHeader(props: { title: ReactNode; description?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-3">
      <div className="grid min-w-0 flex-1 basis-72 gap-1">
        <h1 className="text-xl font-semibold tracking-tight">{props.title}</h1>
        {props.description && <p className="max-w-prose text-sm text-muted-foreground">{props.description}</p>}
      </div>
      {props.action}
    </div>
  )
}

/** Width and padding of a list page inside the app shell. */
export const pageFrameClass = 'mx-auto grid w-full max-w-5xl gap-6 px-4 py-6 sm:px-6 sm:py-8'
