import { Check } from '../../../components/icons'
import * as DropdownMenu from '@radix-ui/react-dropdown-menu'
import type { ReactNode } from 'react'
import { cn } from '../../../lib/cn'
import { pickerItem } from './picker-styles'

/** The menu of a chat header picker (model, agent): a label over its rows. */
export function PickerMenuContent(props: { label: string; children: ReactNode }) {
  return (
    <DropdownMenu.Portal>
      <DropdownMenu.Content
        align="end"
        sideOffset={6}
        className="z-50 max-h-[min(24rem,var(--radix-dropdown-menu-content-available-height))] w-72 max-w-[calc(100vw-1.5rem)] overflow-y-auto rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
      >
        <DropdownMenu.Label className="px-2 pb-1 pt-1.5 text-xs font-medium text-muted-foreground">{props.label}</DropdownMenu.Label>
        {props.children}
      </DropdownMenu.Content>
    </DropdownMenu.Portal>
  )
}

/** One choice of a picker's radio group, checked when it is the current one. */
export function PickerRadioItem(props: { value: string; disabled?: boolean; className?: string; children: ReactNode }) {
  return (
    <DropdownMenu.RadioItem value={props.value} disabled={props.disabled} className={cn(pickerItem, props.className)}>
      {props.children}
      <DropdownMenu.ItemIndicator className="absolute right-2 top-2">
        <Check aria-hidden className="size-4" />
      </DropdownMenu.ItemIndicator>
    </DropdownMenu.RadioItem>
  )
}
