import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { FormError } from '../../../components/form-message'
import { Button } from '../../../components/ui/button'
import { Dialog, DialogContent, DialogFooter, DialogHeader } from '../../../components/ui/dialog'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { errorMessage } from '../../../lib/error-message'
import { useSetModelPrice, type AdminPermittedModel } from '../api'
import { priceSchema, type PriceFormInput, type PriceValues } from '../schemas'

/** The price usage costs are computed with: the catalogue's, or the admin's own. */
export function ModelPriceDialog(props: { model: AdminPermittedModel | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('models')
  const save = useSetModelPrice()
  const form = useForm<PriceFormInput, unknown, PriceValues>({ resolver: zodResolver(priceSchema), defaultValues: { input: '', output: '' } })
  const { errors } = form.formState
  const { model } = props

  useEffect(() => {
    if (!model) return
    const typed = (n: number | undefined) => (n === undefined ? '' : n.toLocaleString(i18n.language, { useGrouping: false, maximumFractionDigits: 6 }))
    form.reset({ input: typed(model.price?.input), output: typed(model.price?.output) })
    save.reset()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [model])

  const done = { onSuccess: () => (toast.success(t('price.saved', { name: model?.displayName })), props.onClose()) }
  const submit = form.handleSubmit((price) => model && save.mutate({ id: model.id, price }, done))

  return (
    <Dialog open={model !== null} onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent closeLabel={t('price.close')}>
        <DialogHeader title={t('price.title', { name: model?.displayName ?? '' })} description={t('price.description')} />
        <form className="grid gap-4" noValidate onSubmit={submit}>
          {save.error && <FormError>{errorMessage(t, save.error)}</FormError>}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="price-input" label={t('price.input')} error={errors.input?.message}>
              <Input inputMode="decimal" autoComplete="off" {...fieldA11y('price-input', errors.input?.message)} {...form.register('input')} />
            </FormField>
            <FormField id="price-output" label={t('price.output')} error={errors.output?.message}>
              <Input inputMode="decimal" autoComplete="off" {...fieldA11y('price-output', errors.output?.message)} {...form.register('output')} />
            </FormField>
          </div>
          <DialogFooter>
            {model?.priceOverridden && (
              <Button type="button" variant="ghost" className="sm:mr-auto" disabled={save.isPending} onClick={() => save.mutate({ id: model.id, price: null }, done)}>
                {t('price.reset')}
              </Button>
            )}
            <Button type="button" variant="outline" onClick={props.onClose}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? t('common:loading') : t('price.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
