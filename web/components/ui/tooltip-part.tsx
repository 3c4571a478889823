import { Tooltip as TooltipPrimitive } from 'radix-ui'
import type { ReactNode, Ref } from 'react'
import { cn } from '../../lib/cn'

export type TooltipProps = { label: ReactNode; side?: 'top' | 'right' | 'bottom' | 'left'; className?: string; children: ReactNode }

/**
 * The tooltip itself (Radix), loaded on first use by Tooltip (./tooltip.tsx) and by the parts that
 * load a trigger with its tooltip. Each has its own provider: the shell is rendered before any of
 * them has arrived.
 */
export function TooltipPart(props: TooltipProps & { triggerRef?: Ref<HTMLElement> }) {
  return (
    <TooltipPrimitive.Provider delayDuration={300}>
      <TooltipPrimitive.Root>
        <TooltipPrimitive.Trigger asChild ref={props.triggerRef as Ref<HTMLButtonElement>}>
          {props.children}
        </TooltipPrimitive.Trigger>
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
    </TooltipPrimitive.Provider>
  )
}
