import { Search, X } from '../../../components/icons'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Input } from '../../../components/ui/input'

const DEBOUNCE_MS = 250

/** The search box of the prompt library: reports what was typed once typing pauses. */
export function PromptSearch(props: { value: string; onChange: (search: string) => void }) {
  const { t } = useTranslation('prompts')
  const [text, setText] = useState(props.value)
  const field = useRef<HTMLInputElement>(null)
  const reported = useRef(props.value)
  const onChange = useRef(props.onChange)
  onChange.current = props.onChange

  // Follows the URL when it changes from outside (back button, "Clear search").
  useEffect(() => {
    if (props.value !== reported.current) {
      reported.current = props.value
      setText(props.value)
    }
  }, [props.value])

  useEffect(() => {
    if (text === reported.current) return
    const timer = setTimeout(() => {
      reported.current = text
      onChange.current(text)
    }, DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text])

  const clear = () => {
    setText('')
    reported.current = ''
    onChange.current('')
    field.current?.focus()
  }

  return (
    <div role="search" className="relative w-full sm:max-w-sm">
      <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
      <Input
        ref={field}
        type="search"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && text && (e.preventDefault(), clear())}
        placeholder={t('search.placeholder')}
        aria-label={t('search.label')}
        className="pl-8 pr-8 [&::-webkit-search-cancel-button]:hidden"
      />
      {text && (
        <button
          type="button"
          onClick={clear}
          aria-label={t('search.clear')}
          className="absolute right-1 top-1/2 grid size-7 -translate-y-1/2 place-items-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4"
        >
          <X />
        </button>
      )}
    </div>
  )
}
