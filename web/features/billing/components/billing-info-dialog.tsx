import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { errorMessage } from '../../../lib/error-message'
import { FormError } from '../../../components/form-message'
import { useUpdateBillingInfo, type Subscription } from '../api'
import { billingInfoSchema, type BillingInfoValues } from '../schemas'
import { applyServerFieldErrors } from '../server-errors'
import { BillingInfoFields } from './billing-info-fields'

type Props = { open: boolean; onOpenChange: (open: boolean) => void; info: Subscription['billingInfo'] }

/** Edit the billing address in a dialog; the form unmounts on close, so every opening starts from the saved values. */
export function BillingInfoDialog(props: Props) {
  const { t } = useTranslation('billing')
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent closeLabel={t('info.close')} className="max-w-xl">
        <DialogHeader title={t('info.editTitle')} description={t('info.editDescription')} />
        <BillingInfoForm info={props.info} onDone={() => props.onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  )
}

function BillingInfoForm(props: { info: Subscription['billingInfo']; onDone: () => void }) {
  const { t } = useTranslation('billing')
  const update = useUpdateBillingInfo()
  const { info } = props
  const form = useForm<BillingInfoValues>({
    resolver: zodResolver(billingInfoSchema),
    defaultValues: { ...info, subText: info.subText ?? '', vatNumber: info.vatNumber ?? '' },
  })

  const submit = form.handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: () => {
        toast.success(t('info.saved'))
        props.onDone()
      },
      onError: (error) => applyServerFieldErrors(form, error),
    }),
  )

  return (
    <form className="grid gap-5" noValidate onSubmit={submit}>
      {update.error && <FormError>{errorMessage(t, update.error)}</FormError>}
      <BillingInfoFields idPrefix="billing-info" register={(name) => form.register(name)} errors={form.formState.errors} />
      <DialogFooter>
        <Button variant="outline" onClick={props.onDone}>
          {t('common:cancel')}
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? t('common:loading') : t('info.save')}
        </Button>
      </DialogFooter>
    </form>
  )
}
