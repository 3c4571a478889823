import { Check, Copy } from 'lucide-react'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from 'sonner'
import { Button } from '../../../components/ui/button'
import { DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { Input } from '../../../components/ui/input'

/** The accept link for an invitation that was not mailed, to be passed on by the admin. */
export function InviteLinkPanel(props: { email: string; url: string; onDone: () => void }) {
  const { t } = useTranslation('members')
  const [copied, setCopied] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  const copy = async () => {
    try {
      // Missing outside secure contexts (plain http on another host): then the text is selected instead.
      await navigator.clipboard.writeText(props.url)
      setCopied(true)
    } catch {
      input.current?.select()
      toast.error(t('inviteDialog.copyFailed'))
    }
  }

  return (
    <>
      <DialogHeader title={t('inviteDialog.linkTitle')} description={t('inviteDialog.linkText', { email: props.email })} />
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          ref={input}
          readOnly
          value={props.url}
          aria-label={t('inviteDialog.link')}
          data-testid="invite-link"
          className="font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="outline" onClick={copy} className="shrink-0">
          {copied ? <Check /> : <Copy />}
          {copied ? t('inviteDialog.copied') : t('inviteDialog.copy')}
        </Button>
      </div>
      <span aria-live="polite" className="sr-only">
        {copied ? t('inviteDialog.copied') : ''}
      </span>
      <DialogFooter>
        <Button onClick={props.onDone}>{t('inviteDialog.done')}</Button>
      </DialogFooter>
    </>
  )
}
