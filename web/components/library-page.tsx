import { Plus } from './icons'
import { useState, type ReactNode } from 'react'
import { PageHeader, pageFrameClass } from './page-header'
import { Button } from './ui/button'
import { Dialog, DialogContent, DialogHeader } from './ui/dialog'
import { Skeleton } from './ui/skeleton'

/** A page of the user's own items (prompts, agents): its title and a "New" button over the list. */
export function LibraryPage(props: { title: string; description: string; newLabel: string; onNew: () => void; children: ReactNode }) {
  return (
    <div className={pageFrameClass}>
      <PageHeader
        title={props.title}
        description={props.description}
        action={
          <Button onClick={props.onNew}>
            <Plus />
            {props.newLabel}
          </Button>
        }
      />
      {props.children}
    </div>
  )
}

/** The same page while its list loads (the route's pending view). */
export function LibraryPageSkeleton(props: { title: string; description: string; children: ReactNode }) {
  return (
    <div className={pageFrameClass}>
      <PageHeader title={props.title} description={props.description} action={<Skeleton className="h-9 w-32" />} />
      {props.children}
    </div>
  )
}

/** Which item the form dialog shows: a new one, or `item` to change; `open` false while it is closed. */
export function useEditing<T>() {
  const [editing, setEditing] = useState<{ open: boolean; item?: T }>({ open: false })
  return {
    ...editing,
    openNew: () => setEditing({ open: true }),
    edit: (item: T) => setEditing({ open: true, item }),
    setOpen: (open: boolean) => setEditing((e) => ({ ...e, open })),
  }
}

/**
 * The dialog that adds an item or changes one. Its content unmounts on close, so every opening
 * starts from the saved values.
 */
export function ItemFormDialog(props: {
  open: boolean
  onOpenChange: (open: boolean) => void
  closeLabel: string
  title: string
  description: string
  children: ReactNode
}) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent closeLabel={props.closeLabel} className="sm:max-w-xl">
        <DialogHeader title={props.title} description={props.description} />
        {props.children}
      </DialogContent>
    </Dialog>
  )
}

/** A part of a library page ("Mine", "Shared with me"): a heading and its cards, or a line saying there are none. */
export function LibrarySection<T>(props: { id: string; title: string; empty: string; items: T[]; className: string; card: (item: T) => ReactNode }) {
  return (
    <section aria-labelledby={props.id} className="grid gap-3">
      <h2 id={props.id} className="text-sm font-medium text-muted-foreground">
        {props.title}
      </h2>
      {props.items.length ? <div className={props.className}>{props.items.map(props.card)}</div> : <p className="text-sm text-muted-foreground">{props.empty}</p>}
    </section>
  )
}
