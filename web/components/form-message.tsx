import type { ReactNode } from 'react'
import { cn } from '../lib/cn'

/** A form-level error (role=alert) above the fields, for errors that belong to no single field. */
export function FormError(props: { children: ReactNode; className?: string }) {
  return (
    <p
      role="alert"
      className={cn(
        'rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive dark:text-red-300',
        props.className,
      )}
    >
      {props.children}
    </p>
  )
}

/** A calm confirmation that something worked (role=status). */
export function FormNotice(props: { children: ReactNode; className?: string }) {
  return (
    <p
      role="status"
      className={cn(
        'rounded-md border border-emerald-600/30 bg-emerald-600/10 px-3 py-2 text-sm text-foreground',
        props.className,
      )}
    >
      {props.children}
    </p>
  )
}

/** The quiet text link used under auth forms ("Back to sign in"). */
export const authLinkClass = 'font-medium text-foreground underline-offset-4 hover:underline'
