import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { BookText } from 'lucide-react'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover'
import { Tooltip } from '../../../components/ui/tooltip'
import { cn } from '../../../lib/cn'
import { useApi } from '../../../lib/use-api'
import { promptQueries, type Prompt } from '../api'
import { PromptPickerList } from './prompt-picker-list'
import { LazyPromptVariablesDialog, preloadPromptVariablesDialog } from './lazy-prompt-variables-dialog'

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

  return (
    <>
      <Popover
        open={open}
        onOpenChange={(next) => {
          if (next) {
            focusElsewhere.current = false
            void preloadPromptVariablesDialog()
          }
          setOpen(next)
        }}
      >
        <Tooltip label={t('picker.open')} side="top">
          <PopoverTrigger asChild>
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
          </PopoverTrigger>
        </Tooltip>
        <PopoverContent side={side} align={align} className="w-80 p-0" onCloseAutoFocus={keepFocus}>
          <PromptPickerList prompts={prompts.data} onChoose={choose} />
          <div className="border-t p-1">
            <Link
              to="/prompts"
              onClick={() => setOpen(false)}
              className="block rounded-md px-2 py-1.5 text-[13px] text-muted-foreground outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring"
            >
              {t('picker.manage')}
            </Link>
          </div>
        </PopoverContent>
      </Popover>
      <LazyPromptVariablesDialog prompt={toFill} onSubmit={insert} onCancel={() => setToFill(null)} />
    </>
  )
}
