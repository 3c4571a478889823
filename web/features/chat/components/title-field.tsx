import { useRef, useState } from 'react'
import { MAX_TITLE_LENGTH } from '../../../../src/api/threads/limits'
import { cn } from '../../../lib/cn'

/**
 * A chat's title being renamed in place: Enter or leaving the field saves, Escape gives up. A title
 * left empty or unchanged changes nothing. `onSave` reports its own failure.
 */
export function TitleField(props: { initial: string; label: string; onSave: (title: string) => Promise<unknown>; onDone: () => void; className?: string }) {
  const [value, setValue] = useState(props.initial)
  // Enter, then the blur that follows as the field goes away, must save once.
  const finished = useRef(false)

  const finish = async (save: boolean) => {
    if (finished.current) return
    finished.current = true
    const title = value.replace(/\s+/g, ' ').trim()
    if (save && title && title !== props.initial) await props.onSave(title).catch(() => {})
    props.onDone()
  }

  return (
    <input
      autoFocus
      aria-label={props.label}
      value={value}
      maxLength={MAX_TITLE_LENGTH}
      onChange={(e) => setValue(e.target.value)}
      onFocus={(e) => e.currentTarget.select()}
      onBlur={() => void finish(true)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault()
          void finish(true)
        } else if (e.key === 'Escape') {
          e.preventDefault()
          e.stopPropagation()
          void finish(false)
        }
      }}
      className={cn(
        'h-8 w-full min-w-0 rounded-md border border-input bg-background px-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring',
        props.className,
      )}
    />
  )
}
