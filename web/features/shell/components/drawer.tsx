import type { ReactNode } from 'react'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../../../components/ui/sheet'

type DrawerProps = {
  id: string
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description: string
  /** The button that opened the drawer, where focus returns when it closes. */
  trigger: () => HTMLElement | null
  children: ReactNode
}

/** The sidebar as a drawer below 768 px (Radix Dialog), loaded when its button is first used. */
export function Drawer(props: DrawerProps) {
  return (
    <Sheet open={props.open} onOpenChange={props.onOpenChange}>
      <SheetContent
        id={props.id}
        data-testid="sidebar-drawer"
        onCloseAutoFocus={(e) => {
          e.preventDefault()
          props.trigger()?.focus()
        }}
      >
        <SheetTitle className="sr-only">{props.title}</SheetTitle>
        <SheetDescription className="sr-only">{props.description}</SheetDescription>
        {props.children}
      </SheetContent>
    </Sheet>
  )
}
