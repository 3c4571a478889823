import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { errorMessage } from '../../../lib/error-message'
import type { Me } from '../../../lib/session'
import { useChangeName } from '../api'
import { nameSchema, type NameValues } from '../schemas'
import { SectionCard } from '../../../components/section-card'

/** Name (editable) and e-mail (shown only). */
export function NameForm(props: { me: Me }) {
  const { t } = useTranslation('settings')
  const changeName = useChangeName()
  const form = useForm<NameValues>({ resolver: zodResolver(nameSchema), values: { name: props.me.name } })
  const { errors, isDirty } = form.formState

  const submit = form.handleSubmit((values) =>
    changeName.mutate(values.name, {
      onSuccess: (me) => {
        form.reset({ name: me.name })
        toast.success(t('account.nameSaved'))
      },
    }),
  )

  return (
    <SectionCard id="profile" title={t('account.profile')} description={t('account.profileHint')}>
      <form className="grid gap-4 sm:max-w-md" noValidate onSubmit={submit}>
        {changeName.error && (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {errorMessage(t, changeName.error)}
          </p>
        )}
        <FormField id="account-email" label={t('account.email')} hint={t('account.emailHint')}>
          <Input id="account-email" type="email" value={props.me.email} readOnly className="bg-muted/50 text-muted-foreground" />
        </FormField>
        <FormField id="account-name" label={t('account.name')} error={errors.name?.message}>
          <Input autoComplete="name" {...fieldA11y('account-name', errors.name?.message)} {...form.register('name')} />
        </FormField>
        <div>
          <Button type="submit" disabled={changeName.isPending || !isDirty}>
            {changeName.isPending ? t('common:loading') : t('account.saveName')}
          </Button>
        </div>
      </form>
    </SectionCard>
  )
}
