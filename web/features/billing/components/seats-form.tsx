import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { FormError } from '../../../components/form-message'
import { useUpdateSeats, type Subscription } from '../api'
import { useCount } from '../format'
import { seatsSchema, typedSeats, type SeatsFormInput, type SeatsValues } from '../schemas'
import { applyServerFieldErrors } from '../server-errors'
import { YearlyTotal } from './yearly-total'

/** Inline change of the number of seats; the new yearly total shows while typing. */
export function SeatsForm(props: { subscription: Subscription }) {
  const { t } = useTranslation('billing')
  const count = useCount()
  const s = props.subscription
  const update = useUpdateSeats()
  const form = useForm<SeatsFormInput, unknown, SeatsValues>({
    resolver: zodResolver(seatsSchema),
    values: { noOfSeats: String(s.seats) },
  })
  const { errors, isDirty } = form.formState
  const error = errors.noOfSeats?.message
  const typed = typedSeats(form.watch('noOfSeats'))
  const changed = typed !== null && typed !== s.seats

  const submit = form.handleSubmit((values) => {
    update.reset()
    update.mutate(values.noOfSeats, {
      onSuccess: (next) => toast.success(t('seats.saved', { count: next.seats, seats: count(next.seats) })),
      onError: (error) => {
        if (isApiError(error) && error.code === 'TOO_MANY_USED_SEATS') {
          form.setError('noOfSeats', { message: 'billing:seats.tooManyUsed' }, { shouldFocus: true })
        } else applyServerFieldErrors(form, error)
      },
    })
  })
  const failure = update.error && !(isApiError(update.error) && (update.error.code === 'TOO_MANY_USED_SEATS' || update.error.fields))

  return (
    <form className="grid gap-3" noValidate onSubmit={submit}>
      {failure && <FormError>{errorMessage(t, update.error)}</FormError>}
      <div className="grid gap-1.5">
        <Label htmlFor="seats-count">{t('seats.change')}</Label>
        <div className="flex flex-wrap gap-2">
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            className="w-32"
            {...fieldA11y('seats-count', error)}
            {...form.register('noOfSeats')}
          />
          <Button type="submit" disabled={update.isPending || !isDirty}>
            {update.isPending ? t('common:loading') : t('seats.save')}
          </Button>
        </div>
        {error && (
          <p id="seats-count-error" role="alert" className="text-[13px] text-destructive">
            {t(error, { ns: ['validation', 'errors'] })}
          </p>
        )}
      </div>
      {!error && <p className="text-[13px] text-muted-foreground">{t('seats.minimumHint', { count: s.usedSeats, seats: count(s.usedSeats) })}</p>}
      {changed && !error && <YearlyTotal seats={typed} pricePerSeatMonthlyCents={s.pricePerSeatMonthlyCents} currency={s.currency} />}
    </form>
  )
}
