import { ExternalLink } from '../../../components/icons'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { errorMessage } from '../../../lib/error-message'
import { usePermitProvider, type Provider } from '../api'
import { providerName } from '../../../lib/provider-name'
import { RegionBadge } from './model-badges'

/** Enabling a provider means accepting its additional terms; the content starts afresh at every opening. */
export function ProviderTermsDialog(props: { provider: Provider | null; onClose: () => void }) {
  const { t } = useTranslation('models')
  return (
    <Dialog open={props.provider !== null} onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent closeLabel={t('terms.close')}>
        {props.provider && <TermsAcceptance key={props.provider.id} provider={props.provider} onClose={props.onClose} />}
      </DialogContent>
    </Dialog>
  )
}

/** The terms version and link, and the admin's explicit acceptance, without which "Enable" stays unavailable. */
function TermsAcceptance({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const { t } = useTranslation('models')
  const permit = usePermitProvider()
  const [accepted, setAccepted] = useState(false)

  const enable = () =>
    permit.mutate(provider.id, {
      onSuccess: () => {
        toast.success(t('providers.enabledToast', { name: providerName(t, provider.id, provider.name) }))
        onClose()
      },
    })

  return (
    <>
      <DialogHeader title={t('terms.title', { name: providerName(t, provider.id, provider.name) })} description={t('terms.description', { name: providerName(t, provider.id, provider.name) })} />
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 rounded-lg border bg-muted/30 px-4 py-3 text-sm">
        {provider.termsUrl && (
          <>
            <dt className="text-muted-foreground">{t('terms.version')}</dt>
            <dd className="font-medium">{provider.termsVersion}</dd>
          </>
        )}
        <dt className="text-muted-foreground">{t('terms.region')}</dt>
        <dd>
          <RegionBadge region={provider.region} />
        </dd>
      </dl>
      {provider.termsUrl && (
        <a
          href={provider.termsUrl}
          target="_blank"
          rel="noreferrer noopener"
          className="inline-flex w-fit items-center gap-1.5 rounded-sm text-sm font-medium underline underline-offset-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {t('terms.read')}
          <ExternalLink aria-hidden className="size-3.5" />
        </a>
      )}
      <div className="flex items-start gap-2.5">
        <input
          id="provider-terms-accepted"
          type="checkbox"
          checked={accepted}
          onChange={(event) => setAccepted(event.target.checked)}
          className="mt-0.5 size-4 shrink-0 rounded border-input accent-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
        />
        <label htmlFor="provider-terms-accepted" className="text-sm leading-snug">
          {t('terms.accept')}
        </label>
      </div>
      {permit.error && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {errorMessage(t, permit.error)}
        </p>
      )}
      <DialogFooter className="pt-1">
        <Button variant="outline" onClick={onClose}>
          {t('common:cancel')}
        </Button>
        <Button disabled={!accepted || permit.isPending} onClick={enable}>
          {permit.isPending ? t('common:loading') : t('terms.submit')}
        </Button>
      </DialogFooter>
    </>
  )
}
