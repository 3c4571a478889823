import { useQuery } from '@tanstack/react-query'
import { BookText } from '../../../components/icons'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Tooltip } from '../../../components/ui/tooltip'
import { cn } from '../../../lib/cn'
import { onDemand, PendingTrigger, useOnDemandTrigger } from '../../../lib/on-demand'
import { useApi } from '../../../lib/use-api'
import { promptQueries, type Prompt } from '../api'
import { LazyPromptVariablesDialog, preloadPromptVariablesDialog } from './lazy-prompt-variables-dialog'

// The list (Radix Popover) loads when the button is first hovered, focused or pressed.
const pickerPopover = onDemand(() => import('./prompt-picker-popover'))

type PromptPickerProps = {
  /** Receives the chosen prompt's text, its `{{variables}}` filled in. */
  onInsert: (text: string) => void
  disabled?: boolean
  /** Classes of the trigger button (an icon button, 32 px). */
  className?: string
  side?: 'top' | 'bottom'
  align?: 'start' | 'end'
}

/**
 * A button that opens a searchable list of the user's prompts. A chosen prompt with variables
 * first asks for their values; then `onInsert` gets the text. Focus stays where `onInsert` puts it.
 */
export function PromptPicker({ onInsert, disabled, className, side = 'top', align = 'start' }: PromptPickerProps) {
  const { t } = useTranslation('prompts')
  const api = useApi()
  const [open, setOpen] = useState(false)
  const [toFill, setToFill] = useState<Prompt | null>(null)
  // Where focus goes when the list closes: the caller's field after an insert, the variables form
  // when one opens; only otherwise back to the trigger.
  const focusElsewhere = useRef(false)
  const prompts = useQuery({ ...promptQueries.list(api), enabled: open })
  const { parts, ref, placeholder } = useOnDemandTrigger(pickerPopover, 'click')

  const insert = (text: string) => {
    focusElsewhere.current = true
    setToFill(null)
    onInsert(text)
  }
  const choose = (prompt: Prompt) => {
    focusElsewhere.current = true
    setOpen(false)
    if (prompt.variables.length > 0) setToFill(prompt)
    else insert(prompt.content)
  }
  const keepFocus = (event: Event) => {
    if (focusElsewhere.current) event.preventDefault()
    focusElsewhere.current = false
  }

  // The tooltip passes the popover trigger's props and ref on to the button.
  const trigger = (
    <Tooltip label={t('picker.open')} side="top">
      <Button
        variant="ghost"
        size="icon"
        disabled={disabled}
        aria-label={t('picker.open')}
        data-testid="prompt-picker"
        data-prompt-picker
        className={cn('size-8 rounded-full text-muted-foreground', className)}
      >
        <BookText />
      </Button>
    </Tooltip>
  )
  const onOpenChange = (next: boolean) => {
    if (next) {
      focusElsewhere.current = false
      void preloadPromptVariablesDialog()
    }
    setOpen(next)
  }

  return (
    <>
      {parts ? (
        <parts.PromptPickerPopover
          trigger={trigger}
          triggerRef={ref}
          open={open}
          onOpenChange={onOpenChange}
          prompts={prompts.data}
          onChoose={choose}
          onCloseAutoFocus={keepFocus}
          side={side}
          align={align}
        />
      ) : (
        <PendingTrigger triggerRef={ref} placeholder={placeholder}>
          {trigger}
        </PendingTrigger>
      )}
      <LazyPromptVariablesDialog prompt={toFill} onSubmit={insert} onCancel={() => setToFill(null)} />
    </>
  )
}
