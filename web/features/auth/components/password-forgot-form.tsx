import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { authApi } from '../api'
import { emailOnlySchema, type EmailOnlyValues } from '../schemas'
import { FormError, FormNotice } from '../../../components/form-message'

/** Asks for a reset link. The answer never tells whether the address has an account. */
export function PasswordForgotForm() {
  const { t } = useTranslation('auth')
  const api = useApi()
  const form = useForm<EmailOnlyValues>({ resolver: zodResolver(emailOnlySchema), defaultValues: { email: '' } })
  const request = useMutation({ mutationFn: ({ email }: EmailOnlyValues) => authApi.forgotPassword(api, email) })
  const { errors } = form.formState

  if (request.isSuccess) {
    return <FormNotice>{t('passwordForgot.sent', { email: request.variables.email })}</FormNotice>
  }
  return (
    <form className="grid gap-4" noValidate onSubmit={form.handleSubmit((v) => request.mutate(v))}>
      {request.error && <FormError>{errorMessage(t, request.error)}</FormError>}
      <FormField id="email" label={t('email')} error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...fieldA11y('email', errors.email?.message)} {...form.register('email')} />
      </FormField>
      <Button type="submit" disabled={request.isPending}>
        {request.isPending ? t('common:loading') : t('passwordForgot.submit')}
      </Button>
    </form>
  )
}
