import { LoaderCircle } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'

type QueuedMessageProps = {
  content: string
  onSendNow: () => void
  onEdit: () => void
}

/** A message held back until the chat's files are ready, so that the answer can draw on them. */
export function QueuedMessage({ content, onSendNow, onEdit }: QueuedMessageProps) {
  const { t } = useTranslation('chat')
  return (
    <section
      aria-label={t('queued.label')}
      data-testid="queued-message"
      className="mx-auto mb-2 flex w-full max-w-3xl flex-col items-end gap-1.5 px-3 sm:px-4"
    >
      <p className="line-clamp-3 max-w-[85%] whitespace-pre-wrap break-words rounded-2xl bg-muted px-4 py-2.5 leading-relaxed opacity-70">{content}</p>
      <div role="status" className="flex flex-wrap items-center justify-end gap-x-2 gap-y-1 text-sm text-muted-foreground">
        <LoaderCircle aria-hidden className="size-4 animate-spin" />
        <span>{t('queued.waiting')}</span>
        <Button variant="ghost" size="sm" onClick={onEdit}>
          {t('queued.edit')}
        </Button>
        <Button variant="outline" size="sm" onClick={onSendNow}>
          {t('queued.sendNow')}
        </Button>
      </div>
    </section>
  )
}
