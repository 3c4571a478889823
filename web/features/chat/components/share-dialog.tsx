import { useQuery } from '@tanstack/react-query'
import { useEffect, useState, type RefObject } from 'react'
import { Check, Copy } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { Input } from '../../../components/ui/input'
import { errorMessage } from '../../../lib/error-message'
import { collectionQueries } from '../../../lib/collection-queries'
import { useApi } from '../../../lib/use-api'
import { useCopy } from '../hooks/use-copy'
import { shareQueries, shareUrl, useRevokeShare, useShareThread } from '../share-api'

/**
 * Sharing a chat with the organisation, or with chosen groups of it: a read-only link to a
 * snapshot of it as it is now, which those signed-in members open; shared again, the link shows
 * the chat as it is then. Stop sharing revokes the link.
 */
export function ShareDialog(props: { threadId: string; open: boolean; onOpenChange: (open: boolean) => void; returnFocusTo: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation('chat')
  const api = useApi()
  const shares = useQuery({ ...shareQueries.ofThread(api, props.threadId), enabled: props.open })
  const share = useShareThread(props.threadId)
  const revoke = useRevokeShare(props.threadId)
  const { copied, copy } = useCopy()
  const current = shares.data?.shares[0]
  const link = current ? shareUrl(current.id) : ''
  const failed = (error: unknown) => toast.error(`${t('share.failed')} ${errorMessage(t, error)}`)
  // The organisation's groups (the same list a collection is shared with); none chosen: everyone.
  const groups = useQuery({ ...collectionQueries.shareTargets(api), enabled: props.open, staleTime: 0 }).data?.groups ?? []
  const [chosen, setChosen] = useState<string[]>([])
  const currentGroups = current?.groups.map((g) => g.id).join(',')
  useEffect(() => setChosen(currentGroups ? currentGroups.split(',') : []), [currentGroups])
  const toggle = (id: string, on: boolean) => setChosen((all) => (on ? [...all, id] : all.filter((g) => g !== id)))

  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent
        closeLabel={t('share.close')}
        // Opened from a menu item, which is gone once the dialog closes: the focus goes back to the menu's button.
        onCloseAutoFocus={(e) => {
          e.preventDefault()
          props.returnFocusTo.current?.focus()
        }}
      >
        <DialogHeader title={t('share.title')} description={t('share.description')} />
        {current ? (
          <div className="grid gap-2">
            <label htmlFor="share-link" className="text-sm font-medium">
              {t('share.link')}
            </label>
            <div className="flex gap-2">
              <Input id="share-link" readOnly value={link} onFocus={(e) => e.target.select()} />
              <Button variant="outline" onClick={() => void copy(link).then((ok) => ok && toast.success(t('share.copied')))}>
                {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
                {t('share.copy')}
              </Button>
            </div>
          </div>
        ) : (
          shares.isSuccess && <p className="text-sm text-muted-foreground">{t('share.notShared')}</p>
        )}
        {current && (
          <p className="text-sm text-muted-foreground" data-testid="share-audience">
            {current.groups.length ? t('share.sharedWithGroups', { groups: current.groups.map((g) => g.name).join(', ') }) : t('share.sharedWithEveryone')}
          </p>
        )}
        {groups.length > 0 && (
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">{t('share.audience')}</legend>
            <p className="text-[13px] text-muted-foreground">{t('share.audienceHint')}</p>
            {groups.map((g) => (
              <label key={g.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" className="size-4 accent-primary" checked={chosen.includes(g.id)} onChange={(e) => toggle(g.id, e.target.checked)} />
                <span className="[overflow-wrap:anywhere]">{g.name}</span>
              </label>
            ))}
          </fieldset>
        )}
        <DialogFooter>
          {current && (
            <Button variant="outline" disabled={revoke.isPending} onClick={() => revoke.mutate(current.id, { onError: failed })}>
              {t('share.stop')}
            </Button>
          )}
          <Button disabled={share.isPending || !shares.isSuccess} onClick={() => share.mutate(chosen, { onError: failed })}>
            {current ? t('share.update') : t('share.create')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
