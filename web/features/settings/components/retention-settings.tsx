import { zodResolver } from '@hookform/resolvers/zod'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useForm, type UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { SectionCard } from '../../../components/section-card'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { NativeSelect } from '../../../components/ui/native-select'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '../../../../src/api/retention/limits'
import { retentionQueries, useSaveRetention, type Retention } from '../retention'
import { retentionSchema, type RetentionValues } from '../schemas'

const toValues = (r: Retention): RetentionValues => ({
  chatMode: r.chatDays === null ? 'forever' : 'days',
  chatDays: String(r.chatDays ?? 365),
  fileMode: r.fileDays === null ? 'forever' : 'days',
  fileDays: String(r.fileDays ?? 365),
})

/** Admin Settings → Settings: how long chats and uploaded files are kept; a daily run deletes what expired. */
export function RetentionSettings() {
  const { t } = useTranslation('settings')
  const api = useApi()
  const retention = useSuspenseQuery(retentionQueries.get(api)).data
  const save = useSaveRetention()
  const form = useForm<RetentionValues>({ resolver: zodResolver(retentionSchema), values: toValues(retention) })

  const submit = form.handleSubmit((v) =>
    save.mutate(
      { chatDays: v.chatMode === 'days' ? Number(v.chatDays) : null, fileDays: v.fileMode === 'days' ? Number(v.fileDays) : null },
      {
        onSuccess: (saved) => {
          form.reset(toValues(saved))
          toast.success(t('retention.saved'))
        },
      },
    ),
  )

  return (
    <SectionCard id="retention" title={t('retention.title')} description={t('retention.hint')}>
      <form className="grid gap-5 sm:max-w-md" noValidate onSubmit={submit}>
        {save.error && (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {errorMessage(t, save.error)}
          </p>
        )}
        <PeriodField form={form} kind="chat" />
        <PeriodField form={form} kind="file" />
        <div>
          <Button type="submit" disabled={save.isPending || !form.formState.isDirty}>
            {save.isPending ? t('common:loading') : t('retention.save')}
          </Button>
        </div>
      </form>
    </SectionCard>
  )
}

/** Kept for ever, or deleted a number of days after the chat's last message (the file's upload). */
function PeriodField({ form, kind }: { form: UseFormReturn<RetentionValues>; kind: 'chat' | 'file' }) {
  const { t } = useTranslation('settings')
  const mode = form.watch(`${kind}Mode`)
  const error = form.formState.errors[`${kind}Days`]?.message
  const modeId = `retention-${kind}-mode`
  const daysId = `retention-${kind}-days`
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-1 text-sm font-medium">{t(`retention.${kind}s`)}</legend>
      <FormField id={modeId} label={t(`retention.${kind}Mode`)}>
        <NativeSelect id={modeId} {...form.register(`${kind}Mode`)}>
          <option value="forever">{t('retention.forever')}</option>
          <option value="days">{t('retention.afterDays')}</option>
        </NativeSelect>
      </FormField>
      {mode === 'days' && (
        <FormField id={daysId} label={t(`retention.${kind}Days`)} error={error} hint={t('retention.daysHint', { min: MIN_RETENTION_DAYS, max: MAX_RETENTION_DAYS })}>
          <Input type="number" inputMode="numeric" min={MIN_RETENTION_DAYS} max={MAX_RETENTION_DAYS} className="sm:w-40" {...fieldA11y(daysId, error)} {...form.register(`${kind}Days`)} />
        </FormField>
      )}
    </fieldset>
  )
}
