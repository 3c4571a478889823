import * as Popover from '@radix-ui/react-popover'
import type { ReactElement, Ref } from 'react'

/** What a member learns on Upgrade (Radix Popover), loaded on first use by UpgradeEntry. */
export function UpgradePopover(props: { trigger: ReactElement; triggerRef: Ref<HTMLElement>; text: string }) {
  return (
    <Popover.Root>
      <Popover.Trigger asChild ref={props.triggerRef as Ref<HTMLButtonElement>}>
        {props.trigger}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          side="right"
          align="end"
          sideOffset={8}
          className="z-50 w-64 rounded-lg border bg-popover p-3 text-sm text-popover-foreground shadow-md outline-none"
        >
          {props.text}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
