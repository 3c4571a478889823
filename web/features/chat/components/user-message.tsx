import { Check, Copy, Pencil } from '../../../components/icons'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MAX_MESSAGE_LENGTH } from '../../../../src/api/threads/limits'
import { Button } from '../../../components/ui/button'
import type { Message } from '../api'
import { useCopyMessage } from '../hooks/use-copy'
import { ActionButton } from './action-button'
import { VersionSwitcher } from './version-switcher'

type UserMessageProps = {
  message: Message
  /** Set for the last user message while no reply streams: edit and resend it. */
  onEdit?: (content: string) => Promise<boolean>
  /** Shows another version of the message (absent while a reply streams). */
  onShowVersion?: (messageId: string) => void
}

/** What the user wrote: a soft bubble on the right, shown as typed (no markdown). */
export function UserMessage({ message, onEdit, onShowVersion }: UserMessageProps) {
  const { t } = useTranslation('chat')
  const { copied, copy } = useCopyMessage()
  const [editing, setEditing] = useState(false)

  if (editing && onEdit) {
    return (
      <EditMessage
        initial={message.content}
        onCancel={() => setEditing(false)}
        onSave={async (content) => {
          setEditing(false)
          const taken = await onEdit(content)
          if (!taken) setEditing(true)
        }}
      />
    )
  }

  return (
    <div className="group/message flex flex-col items-end gap-1" data-testid="user-message">
      <h3 className="sr-only">{t('message.you')}</h3>
      <div className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl bg-muted px-4 py-2.5 leading-relaxed">{message.content}</div>
      <div className="flex items-center gap-0.5">
        <VersionSwitcher message={message} onShow={onShowVersion} />
        <div className="flex gap-0.5 opacity-0 transition-opacity focus-within:opacity-100 group-hover/message:opacity-100 max-md:opacity-100">
        <ActionButton label={t('message.copy')} onClick={() => void copy(message.content)}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
        </ActionButton>
        {onEdit && (
          <ActionButton label={t('message.edit')} onClick={() => setEditing(true)}>
            <Pencil aria-hidden />
          </ActionButton>
        )}
        </div>
      </div>
    </div>
  )
}

function EditMessage(props: { initial: string; onCancel: () => void; onSave: (content: string) => void }) {
  const { t } = useTranslation('chat')
  const [text, setText] = useState(props.initial)
  const field = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    const el = field.current
    el?.focus()
    el?.setSelectionRange(el.value.length, el.value.length)
  }, [])
  useEffect(() => {
    const el = field.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, 320)}px`
  }, [text])

  const valid = text.trim().length > 0 && text.length <= MAX_MESSAGE_LENGTH
  const save = () => valid && props.onSave(text)

  return (
    <div className="ml-auto w-full max-w-[85%] rounded-2xl border border-input bg-background p-2 shadow-sm" data-testid="edit-message">
      <label htmlFor="edit-message" className="sr-only">
        {t('message.editLabel')}
      </label>
      <textarea
        id="edit-message"
        ref={field}
        value={text}
        rows={1}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') props.onCancel()
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            save()
          }
        }}
        className="block w-full resize-none bg-transparent px-2 py-1.5 leading-relaxed outline-none"
      />
      <div className="flex justify-end gap-2 pt-1">
        <Button variant="ghost" size="sm" onClick={props.onCancel}>
          {t('message.editCancel')}
        </Button>
        <Button size="sm" onClick={save} disabled={!valid}>
          {t('message.editSend')}
        </Button>
      </div>
    </div>
  )
}
