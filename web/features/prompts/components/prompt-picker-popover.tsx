import { Link } from '@tanstack/react-router'
import type { ReactElement, Ref } from 'react'
import { useTranslation } from 'react-i18next'
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover'
import type { Prompt } from '../api'
import { PromptPickerList } from './prompt-picker-list'

type Props = {
  trigger: ReactElement
  triggerRef: Ref<HTMLElement>
  open: boolean
  onOpenChange: (open: boolean) => void
  prompts: Prompt[] | undefined
  onChoose: (prompt: Prompt) => void
  onCloseAutoFocus: (event: Event) => void
  side: 'top' | 'bottom'
  align: 'start' | 'end'
}

/** The prompt picker's list (Radix Popover), loaded on first use by PromptPicker. */
export function PromptPickerPopover(props: Props) {
  const { t } = useTranslation('prompts')
  return (
    <Popover open={props.open} onOpenChange={props.onOpenChange}>
      <PopoverTrigger asChild ref={props.triggerRef as Ref<HTMLButtonElement>}>
        {props.trigger}
      </PopoverTrigger>
      <PopoverContent side={props.side} align={props.align} className="w-80 p-0" onCloseAutoFocus={props.onCloseAutoFocus}>
        <PromptPickerList prompts={props.prompts} onChoose={props.onChoose} />
        <div className="border-t p-1">
          <Link
            to="/prompts"
            onClick={() => props.onOpenChange(false)}
            className="block rounded-md px-2 py-1.5 text-[13px] text-muted-foreground outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring"
          >
            {t('picker.manage')}
          </Link>
        </div>
      </PopoverContent>
    </Popover>
  )
}
