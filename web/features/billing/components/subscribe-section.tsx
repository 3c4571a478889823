import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { FormError } from '../../../components/form-message'
import { useSubscribe, type Price } from '../api'
import { EMPTY_BILLING_INFO, subscribeSchema, typedSeats, type SubscribeFormInput, type SubscribeValues } from '../schemas'
import { applyServerFieldErrors } from '../server-errors'
import { BillingInfoFields } from './billing-info-fields'
import { YearlyTotal } from './yearly-total'
import { SectionCard } from '../../../components/section-card'

/** The subscribe form: billing address and number of seats, with the yearly total as seats change. */
export function SubscribeSection(props: { price: Price }) {
  const { t } = useTranslation('billing')
  const subscribe = useSubscribe()
  const form = useForm<SubscribeFormInput, unknown, SubscribeValues>({
    resolver: zodResolver(subscribeSchema),
    defaultValues: { ...EMPTY_BILLING_INFO, noOfSeats: '' },
  })
  const { errors } = form.formState
  const seats = typedSeats(form.watch('noOfSeats'))

  const submit = form.handleSubmit((values) => {
    subscribe.reset()
    subscribe.mutate(values, {
      onSuccess: () => toast.success(t('subscribe.done')),
      onError: (error) => {
        if (isApiError(error) && error.code === 'TOO_MANY_USED_SEATS') {
          form.setError('noOfSeats', { message: 'billing:seats.tooManyUsed' }, { shouldFocus: true })
        } else applyServerFieldErrors(form, error)
      },
    })
  })
  const failure =
    subscribe.error && !(isApiError(subscribe.error) && (subscribe.error.code === 'TOO_MANY_USED_SEATS' || subscribe.error.fields))

  return (
    <SectionCard id="subscribe" title={t('subscribe.title')} description={t('subscribe.description')}>
      <form className="grid gap-5" noValidate onSubmit={submit}>
        {failure && <FormError>{errorMessage(t, subscribe.error)}</FormError>}
        <fieldset className="grid gap-3">
          <legend className="mb-3 text-sm font-semibold">{t('subscribe.address')}</legend>
          <BillingInfoFields idPrefix="subscribe" register={(name) => form.register(name)} errors={errors} />
        </fieldset>
        <fieldset className="grid items-start gap-4 border-t pt-5 sm:grid-cols-2">
          <legend className="sr-only">{t('subscribe.seatsLegend')}</legend>
          <div>
            <FormField id="subscribe-seats" label={t('fields.noOfSeats')} error={errors.noOfSeats?.message} hint={t('fields.noOfSeatsHint')}>
              <Input
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                placeholder={t('fields.noOfSeatsPlaceholder')}
                {...fieldA11y('subscribe-seats', errors.noOfSeats?.message)}
                {...form.register('noOfSeats')}
              />
            </FormField>
          </div>
          <YearlyTotal
            seats={seats}
            pricePerSeatMonthlyCents={props.price.pricePerSeatMonthlyCents}
            currency={props.price.currency}
            className="sm:mt-[1.375rem]"
          />
        </fieldset>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <Button type="submit" disabled={subscribe.isPending}>
            {subscribe.isPending ? t('common:loading') : t('subscribe.submit')}
          </Button>
          <p className="text-[13px] text-muted-foreground">{t('subscribe.invoiceNote')}</p>
        </div>
      </form>
    </SectionCard>
  )
}
