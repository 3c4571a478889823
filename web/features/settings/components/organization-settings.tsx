import { zodResolver } from '@hookform/resolvers/zod'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { SectionCard } from '../../../components/section-card'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { organizationQueries, useRenameOrganization } from '../organization'
import { RetentionSettings } from './retention-settings'
import { organizationNameSchema, type OrganizationNameValues } from '../schemas'

/** Admin Settings → Settings: what holds for the whole organisation: its name, then how long its data is kept. */
export function OrganizationSettings() {
  const { t } = useTranslation('settings')
  const api = useApi()
  const organization = useSuspenseQuery(organizationQueries.get(api)).data
  const rename = useRenameOrganization()
  const form = useForm<OrganizationNameValues>({ resolver: zodResolver(organizationNameSchema), values: { name: organization.name } })
  const { errors, isDirty } = form.formState

  const submit = form.handleSubmit((values) =>
    rename.mutate(values.name, {
      onSuccess: (saved) => {
        form.reset({ name: saved.name })
        toast.success(t('organization.nameSaved'))
      },
    }),
  )

  return (
    <div className="grid gap-6">
      <SectionCard id="organization" title={t('organization.title')} description={t('organization.hint')}>
        <form className="grid gap-4 sm:max-w-md" noValidate onSubmit={submit}>
          {rename.error && (
            <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
              {errorMessage(t, rename.error)}
            </p>
          )}
          <FormField id="organization-name" label={t('organization.name')} error={errors.name?.message}>
            <Input autoComplete="organization" {...fieldA11y('organization-name', errors.name?.message)} {...form.register('name')} />
          </FormField>
          <div>
            <Button type="submit" disabled={rename.isPending || !isDirty}>
              {rename.isPending ? t('common:loading') : t('organization.save')}
            </Button>
          </div>
        </form>
      </SectionCard>
      <RetentionSettings />
    </div>
  )
}
