import { Tooltip as TooltipPrimitive } from 'radix-ui'
import type { ReactNode } from 'react'
import { cn } from '../../lib/cn'

export const TooltipProvider = TooltipPrimitive.Provider

/** A short label on hover and keyboard focus; pass `disabled` to render the child alone. */
export function Tooltip(props: { label: ReactNode; side?: 'top' | 'right' | 'bottom' | 'left'; disabled?: boolean; className?: string; children: ReactNode }) {
  if (props.disabled) return <>{props.children}</>
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{props.children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          side={props.side ?? 'right'}
          sideOffset={6}
          collisionPadding={8}
          className={cn('z-50 rounded-md bg-foreground px-2 py-1 text-xs font-medium text-background shadow-md', props.className)}
        >
          {props.label}
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  )
}
