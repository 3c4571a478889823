import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Button } from '../../../components/ui/button'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { authApi } from '../api'
import { serverFieldKey } from '../../../lib/form-fields'
import { newPasswordSchema, type NewPasswordValues } from '../schemas'
import { FormError } from '../../../components/form-message'
import { NewPasswordFields } from '../../../components/new-password-fields'

/** Sets a new password with the token from the reset mail; a used or expired token offers a new link. */
export function PasswordResetForm(props: { token: string }) {
  const { t } = useTranslation('auth')
  const api = useApi()
  const navigate = useNavigate()
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', passwordConfirmation: '' },
  })
  const reset = useMutation({
    mutationFn: ({ password }: NewPasswordValues) => authApi.resetPassword(api, { token: props.token, password }),
    onSuccess: async () => {
      toast.success(t('passwordReset.success'))
      await navigate({ to: '/login' })
    },
    onError: (error) => {
      const message = isApiError(error) ? error.fields?.password : undefined
      if (message) form.setError('password', { message: serverFieldKey(message) })
    },
  })
  const { errors } = form.formState

  if (!props.token || (isApiError(reset.error) && reset.error.code === 'INVALID_TOKEN')) {
    return <InvalidResetLink />
  }
  return (
    <form method="post" className="grid gap-4" noValidate onSubmit={form.handleSubmit((v) => reset.mutate(v))}>
      <p className="text-sm text-muted-foreground">{t('passwordReset.description')}</p>
      {reset.error && !(isApiError(reset.error) && reset.error.fields?.password) && (
        <FormError>{errorMessage(t, reset.error)}</FormError>
      )}
      <NewPasswordFields
        labels={{ password: t('newPassword'), confirmation: t('passwordConfirmation'), hint: t('passwordHint') }}
        errors={{ password: errors.password?.message, passwordConfirmation: errors.passwordConfirmation?.message }}
        register={(name) => form.register(name)}
        autoFocus
      />
      <Button type="submit" disabled={reset.isPending}>
        {reset.isPending ? t('common:loading') : t('passwordReset.submit')}
      </Button>
    </form>
  )
}

function InvalidResetLink() {
  const { t } = useTranslation('auth')
  return (
    <div className="grid gap-4">
      <FormError>{t('INVALID_TOKEN', { ns: 'errors' })}</FormError>
      <p className="text-sm text-muted-foreground">{t('passwordReset.invalidHint')}</p>
      <Button asChild variant="outline">
        <Link to="/password/forgot">{t('passwordReset.requestNew')}</Link>
      </Button>
    </div>
  )
}
