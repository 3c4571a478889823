import { RotateCcw } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { Button } from '../../../components/ui/button'
import { useCancelSubscription, useUncancelSubscription, type Subscription } from '../api'

/** Cancel (destructive, with what it means) or reactivate a cancelled subscription, both confirmed first. */
export function SubscriptionActions(props: { subscription: Subscription }) {
  const { t, i18n } = useTranslation('billing')
  const cancel = useCancelSubscription()
  const uncancel = useUncancelSubscription()
  const s = props.subscription
  // Only ever shown in the browser (dialogs and toasts), so the reader's time zone is right.
  const endDate = () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(s.nextRenewalAt))

  // The confirm dialog stays open when the action throws, and says why.
  const run = async (mutation: typeof cancel, done: string) => {
    await mutation.mutateAsync()
    toast.success(done)
  }

  if (s.status === 'cancelled') {
    return (
      <>
        <p className="min-w-0 flex-1 basis-64 text-[13px] text-muted-foreground">
          {t('reactivate.hint')}
        </p>
        <Button
          onClick={() =>
            confirm({
              title: t('reactivate.title'),
              description: t('reactivate.description', { date: endDate() }),
              confirmLabel: t('reactivate.confirm'),
              action: () => run(uncancel, t('reactivate.done')),
            })
          }
        >
          <RotateCcw />
          {t('reactivate.button')}
        </Button>
      </>
    )
  }
  return (
    <>
      <p className="min-w-0 flex-1 basis-64 text-[13px] text-muted-foreground">{t('cancel.hint')}</p>
      <Button
        variant="outline"
        className="border-destructive/40 text-destructive hover:bg-destructive/10 hover:text-destructive dark:text-red-300"
        onClick={() =>
          confirm({
            title: t('cancel.title'),
            description: t('cancel.description', { date: endDate() }),
            confirmLabel: t('cancel.confirm'),
            cancelLabel: t('cancel.keep'),
            destructive: true,
            action: () => run(cancel, t('cancel.done', { date: endDate() })),
          })
        }
      >
        {t('cancel.button')}
      </Button>
    </>
  )
}
