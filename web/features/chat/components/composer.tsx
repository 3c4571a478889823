import { ArrowUp, Square } from '../../../components/icons'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { MAX_MESSAGE_LENGTH } from '../../../../src/api/threads/limits'
import { cn } from '../../../lib/cn'
import { matches, shortcut } from '../../../lib/shortcuts'
import type { PromptPickerSlot } from '../lib/slots'

// The browser's layout effect; on the server it would only warn.
const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect

type ComposerProps = {
  /** Resolves to whether the message was taken; when not, the text comes back into the field. */
  onSend: (content: string) => Promise<boolean>
  onStop?: () => void
  /** A reply is streaming: sending waits, Stop is offered. */
  replying?: boolean
  /** Nothing can be sent now (no model, no subscription, a reply still being written); typing still works. */
  disabled?: boolean
  initialText?: string
  /** Puts text into the field (a message that could not be sent, a filled-in prompt); a new object each time. */
  restore?: { text: string } | null
  autoFocus?: boolean
  /** Shown above the text (the chat's files). */
  attachments?: ReactNode
  /** Buttons left of the hint (attaching files); the prompt picker follows them. */
  tools?: ReactNode
  /** Files pasted into the field. */
  onPasteFiles?: (files: File[]) => void
  /** The saved-prompt picker, after the tools. */
  promptPicker?: PromptPickerSlot
  className?: string
}

/**
 * The message field pinned under a chat: grows with its text; Enter sends, Shift+Enter breaks the
 * line. A saved prompt can be inserted at the cursor from the prompt picker beside it.
 */
export function Composer(props: ComposerProps) {
  const { onSend, onStop, replying = false, disabled = false, initialText = '', restore, autoFocus, attachments, tools, onPasteFiles, className } = props
  const { t } = useTranslation('chat')
  const [text, setText] = useState(initialText)
  const [sending, setSending] = useState(false)
  const field = useRef<HTMLTextAreaElement>(null)
  // Where the cursor goes once an inserted prompt is in the field.
  const caret = useRef<number | null>(null)
  // Whether the user has put the cursor somewhere (typing, clicking); until then inserts go at the end.
  const placed = useRef(false)

  useIsomorphicLayoutEffect(() => {
    const el = field.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`
    if (caret.current !== null) {
      el.focus()
      el.setSelectionRange(caret.current, caret.current)
      caret.current = null
    }
  }, [text])

  /** Puts a prompt's text at the cursor (replacing a selection), or at the end before the user placed one. */
  const insert = useCallback((inserted: string) => {
    const el = field.current
    const atCursor = el !== null && placed.current
    setText((current) => {
      const start = atCursor ? Math.min(el.selectionStart, current.length) : current.length
      const end = atCursor ? Math.min(el.selectionEnd, current.length) : current.length
      caret.current = start + inserted.length
      return current.slice(0, start) + inserted + current.slice(end)
    })
  }, [])
  // Not re-rendered with every keystroke or streamed delta.
  const promptPicker = useMemo(() => props.promptPicker?.(insert), [props.promptPicker, insert])

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files]
    if (!onPasteFiles || files.length === 0) return
    event.preventDefault()
    onPasteFiles(files)
  }

  useEffect(() => {
    // Not on touch screens, where focusing would push the on-screen keyboard up unasked.
    if (autoFocus && window.matchMedia('(pointer: fine)').matches) field.current?.focus()
  }, [autoFocus])

  // Text given back (a message that could not be sent, a filled-in prompt) goes before anything typed meanwhile.
  useEffect(() => {
    if (!restore) return
    caret.current = restore.text.length
    setText((current) => (current ? `${restore.text}\n\n${current}` : restore.text))
  }, [restore])

  const tooLong = text.length > MAX_MESSAGE_LENGTH
  const canSend = !disabled && !replying && !sending && text.trim().length > 0 && !tooLong

  const submit = async (event?: FormEvent) => {
    event?.preventDefault()
    if (!canSend) return
    const content = text
    setText('')
    setSending(true)
    const taken = await onSend(content).catch(() => false)
    setSending(false)
    // Never lose a message: a refused one comes back, unless something new was typed meanwhile.
    if (!taken) setText((current) => (current ? current : content))
    field.current?.focus()
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    placed.current = true
    // `/` in an empty field opens the saved prompts (the picker the route put beside the field).
    if (!text && matches(event, shortcut('promptPicker'))) {
      const picker = event.currentTarget.form?.querySelector<HTMLButtonElement>('[data-prompt-picker]:not(:disabled)')
      if (picker) {
        event.preventDefault()
        picker.click()
      }
      return
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      void submit()
    }
  }

  return (
    <form onSubmit={submit} className={cn('mx-auto w-full max-w-3xl px-3 pb-3 sm:px-4 sm:pb-4 print:hidden', className)}>
      <div className="rounded-2xl border border-input bg-background shadow-sm transition-shadow focus-within:border-ring/60 focus-within:ring-3 focus-within:ring-ring/15">
        {attachments}
        <label htmlFor="chat-composer" className="sr-only">
          {t('composer.label')}
        </label>
        <textarea
          id="chat-composer"
          ref={field}
          rows={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onPointerUp={() => (placed.current = true)}
          placeholder={t('composer.placeholder')}
          aria-invalid={tooLong || undefined}
          aria-describedby="chat-composer-hint"
          className="block max-h-60 w-full resize-none bg-transparent px-4 pb-1 pt-3 text-[15px] leading-6 outline-none placeholder:text-muted-foreground"
        />
        <div className="flex items-center gap-1 py-2 pl-2 pr-2">
          {tools}
          {promptPicker}
          <p id="chat-composer-hint" className={cn('ml-1 min-w-0 flex-1 truncate text-xs', tooLong ? 'text-destructive' : 'text-muted-foreground')}>
            {tooLong ? t('composer.tooLong', { count: text.length, max: MAX_MESSAGE_LENGTH }) : <span className="max-sm:sr-only">{t('composer.hint')}</span>}
          </p>
          {replying ? (
            <button
              type="button"
              onClick={onStop}
              aria-label={t('composer.stop')}
              title={t('composer.stop')}
              className="grid size-8 shrink-0 place-items-center rounded-full bg-foreground text-background outline-none transition-opacity hover:opacity-85 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
            >
              <Square aria-hidden className="size-3 fill-current" />
            </button>
          ) : (
            <button
              type="submit"
              disabled={!canSend}
              aria-label={t('composer.send')}
              title={t('composer.send')}
              className="grid size-8 shrink-0 place-items-center rounded-full bg-foreground text-background outline-none transition-opacity hover:opacity-85 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background disabled:pointer-events-none disabled:opacity-25"
            >
              <ArrowUp aria-hidden className="size-4" />
            </button>
          )}
        </div>
      </div>
    </form>
  )
}
