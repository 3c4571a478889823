import { Slot } from 'radix-ui'
import type { Ref } from 'react'
import { onDemand, useOnDemandTrigger } from '../../lib/on-demand'
import type { TooltipProps } from './tooltip-part'

export const tooltipPart = onDemand(() => import('./tooltip-part'))

/**
 * A short label on hover and keyboard focus; pass `disabled` to render the child alone. The tooltip
 * (Radix, floating-ui) loads when a trigger is first hovered or focused, and shows from then on.
 */
export function Tooltip(props: TooltipProps & { disabled?: boolean }) {
  if (props.disabled) return <>{props.children}</>
  return <OnDemandTooltip {...props} />
}

function OnDemandTooltip({ children, ...props }: TooltipProps) {
  const { parts, ref, placeholder } = useOnDemandTrigger(tooltipPart, 'hover')
  if (!parts)
    return (
      <Slot.Root ref={ref as Ref<HTMLElement>} {...placeholder}>
        {children}
      </Slot.Root>
    )
  return (
    <parts.TooltipPart {...props} triggerRef={ref}>
      {children}
    </parts.TooltipPart>
  )
}
