import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { useChangePassword } from '../api'
import { passwordSchema, type PasswordValues } from '../schemas'
import { SectionCard } from '../../../components/section-card'

const empty: PasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' }

export function PasswordForm(props: { email: string }) {
  const { t } = useTranslation('settings')
  const changePassword = useChangePassword()
  const form = useForm<PasswordValues>({ resolver: zodResolver(passwordSchema), defaultValues: empty })
  const { errors } = form.formState
  // A wrong current password belongs to its field; anything else is said above the form.
  const formError =
    changePassword.error && !(isApiError(changePassword.error) && changePassword.error.code === 'CURRENT_PASSWORD_INCORRECT')
      ? errorMessage(t, changePassword.error)
      : undefined

  const submit = form.handleSubmit((values) =>
    changePassword.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      {
        onSuccess: () => {
          form.reset(empty)
          toast.success(t('account.passwordChanged'))
        },
        onError: (error) => {
          if (isApiError(error) && error.code === 'CURRENT_PASSWORD_INCORRECT') {
            form.setError('currentPassword', { message: errorMessage(t, error) }, { shouldFocus: true })
          }
        },
      },
    ),
  )

  return (
    <SectionCard id="password" title={t('account.password')} description={t('account.passwordHint')}>
      <form className="grid gap-4 sm:max-w-md" noValidate onSubmit={submit}>
        {formError && (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {formError}
          </p>
        )}
        {/* Lets password managers tie the new password to the account. */}
        <input type="text" name="username" autoComplete="username" value={props.email} hidden readOnly />
        <FormField id="current-password" label={t('account.currentPassword')} error={errors.currentPassword?.message}>
          <Input
            type="password"
            autoComplete="current-password"
            {...fieldA11y('current-password', errors.currentPassword?.message)}
            {...form.register('currentPassword')}
          />
        </FormField>
        <FormField
          id="new-password"
          label={t('account.newPassword')}
          error={errors.newPassword?.message}
          hint={t('account.newPasswordHint')}
        >
          <Input
            type="password"
            autoComplete="new-password"
            {...fieldA11y('new-password', errors.newPassword?.message)}
            {...form.register('newPassword')}
          />
        </FormField>
        <FormField id="confirm-password" label={t('account.confirmPassword')} error={errors.confirmPassword?.message}>
          <Input
            type="password"
            autoComplete="new-password"
            {...fieldA11y('confirm-password', errors.confirmPassword?.message)}
            {...form.register('confirmPassword')}
          />
        </FormField>
        <div>
          <Button type="submit" disabled={changePassword.isPending}>
            {changePassword.isPending ? t('common:loading') : t('account.changePassword')}
          </Button>
        </div>
      </form>
    </SectionCard>
  )
}
