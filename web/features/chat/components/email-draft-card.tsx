import { Check, Copy, Mail } from '../../../components/icons'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { Textarea } from '../../../components/ui/textarea'
import { useCopy } from '../hooks/use-copy'
import { draftText, mailtoHref } from '../lib/mailto'
import type { EmailDraft } from '../lib/tool-data'

/**
 * The e-mail a send_email call drafted, editable in place. Nothing is sent from here: the link
 * hands the current text to the user's mail program, the copy button to the clipboard. Edits
 * live in this card only; the reply keeps the model's draft.
 */
export function EmailDraftCard({ draft: initial }: { draft: EmailDraft }) {
  const { t } = useTranslation('tools')
  const id = useId()
  const [draft, setDraft] = useState(initial)
  const { copied, copy } = useCopy()
  const set = (field: keyof EmailDraft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: e.target.value }))

  const onCopy = async () => {
    if (await copy(draftText(draft, { to: t('email.to'), subject: t('email.subject') }))) toast.success(t('email.copied'))
    else toast.error(t('email.copyFailed'))
  }

  return (
    <section className="min-w-0 rounded-lg border bg-card text-sm text-card-foreground" aria-labelledby={`${id}-title`} data-testid="email-draft">
      <header className="flex flex-wrap items-center gap-x-2 gap-y-0.5 border-b px-3 py-2">
        <Mail aria-hidden className="size-4 shrink-0 text-muted-foreground" />
        <h4 id={`${id}-title`} className="font-medium">
          {t('names.send_email')}
        </h4>
        <p className="basis-full text-xs text-muted-foreground sm:ml-auto sm:basis-auto">{t('email.notSent')}</p>
      </header>
      <div className="grid grid-cols-1 gap-3 p-3">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-to`}>{t('email.to')}</Label>
          <Input id={`${id}-to`} value={draft.to} onChange={set('to')} autoComplete="off" spellCheck={false} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-subject`}>{t('email.subject')}</Label>
          <Input id={`${id}-subject`} value={draft.subject} onChange={set('subject')} autoComplete="off" />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-body`}>{t('email.body')}</Label>
          <Textarea id={`${id}-body`} value={draft.body} onChange={set('body')} rows={Math.min(Math.max(draft.body.split('\n').length + 1, 4), 14)} />
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" size="sm" onClick={() => void onCopy()}>
            {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
            {t('email.copy')}
          </Button>
          <Button asChild size="sm">
            <a href={mailtoHref(draft)}>
              <Mail aria-hidden />
              {t('email.open')}
            </a>
          </Button>
        </div>
      </div>
    </section>
  )
}
