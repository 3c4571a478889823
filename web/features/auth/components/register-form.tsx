import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useForm, type UseFormRegisterReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { toLanguage } from '../../../lib/i18n'
import { useApi } from '../../../lib/use-api'
import { authApi } from '../api'
import { sessionQueries } from '../../../lib/session'
import { serverFieldKey } from '../../../lib/form-fields'
import { registerSchema, type RegisterValues } from '../schemas'
import { FormError } from '../../../components/form-message'
import { NewPasswordFields } from '../../../components/new-password-fields'

// Refusals that are about the address itself are shown on the e-mail field.
const EMAIL_CODES = new Set(['EMAIL_EXISTS', 'EMAIL_PROVIDER_BLACKLISTED'])

export function RegisterForm(props: { isCloud: boolean }) {
  const { t, i18n } = useTranslation('auth')
  const api = useApi()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const form = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    defaultValues: { email: '', name: '', organizationName: '', password: '', passwordConfirmation: '', termsAccepted: false },
  })
  const register = useMutation({
    mutationFn: (values: RegisterValues) =>
      authApi.register(api, { ...values, termsAccepted: true, locale: toLanguage(i18n.language) ?? 'de' }),
    onSuccess: async ({ user }) => {
      if (user.emailVerified) {
        queryClient.setQueryData(sessionQueries.me(api).queryKey, user)
        await navigate({ to: '/chat' })
      } else {
        await navigate({ to: '/email-confirm', search: { email: user.email } })
      }
    },
    onError: (error) => {
      if (!isApiError(error)) return
      if (EMAIL_CODES.has(error.code)) form.setError('email', { message: error.code }, { shouldFocus: true })
      for (const [field, message] of Object.entries(error.fields ?? {})) {
        if (field in form.getValues()) form.setError(field as keyof RegisterValues, { message: serverFieldKey(message) })
      }
    },
  })
  const { errors } = form.formState
  // Shown above the form only when no field carries the error.
  const formError =
    register.error && !(isApiError(register.error) && (EMAIL_CODES.has(register.error.code) || register.error.fields))
      ? errorMessage(t, register.error)
      : undefined

  return (
    // method=post: a submit before hydration must not put the password into the URL.
    <form
      method="post"
      className="grid gap-4"
      noValidate
      onSubmit={form.handleSubmit((v) => {
        register.reset()
        register.mutate(v)
      })}
    >
      {formError && <FormError>{formError}</FormError>}
      <FormField
        id="email"
        label={t('email')}
        error={errors.email?.message}
        hint={props.isCloud ? t('registration.companyEmailHint') : undefined}
      >
        <Input type="email" autoComplete="email" {...fieldA11y('email', errors.email?.message)} {...form.register('email')} />
      </FormField>
      <FormField id="name" label={t('registration.name')} error={errors.name?.message}>
        <Input autoComplete="name" {...fieldA11y('name', errors.name?.message)} {...form.register('name')} />
      </FormField>
      <FormField id="organizationName" label={t('registration.organizationName')} error={errors.organizationName?.message}>
        <Input
          autoComplete="organization"
          {...fieldA11y('organizationName', errors.organizationName?.message)}
          {...form.register('organizationName')}
        />
      </FormField>
      <NewPasswordFields
        labels={{ password: t('password'), confirmation: t('passwordConfirmation'), hint: t('passwordHint') }}
        errors={{ password: errors.password?.message, passwordConfirmation: errors.passwordConfirmation?.message }}
        register={(name) => form.register(name)}
      />
      <TermsCheckbox error={errors.termsAccepted?.message} registration={form.register('termsAccepted')} />
      <Button type="submit" disabled={register.isPending}>
        {register.isPending ? t('common:loading') : t('registration.submit')}
      </Button>
    </form>
  )
}

function TermsCheckbox(props: { error?: string; registration: UseFormRegisterReturn }) {
  const { t } = useTranslation('auth')
  return (
    <div className="grid gap-1.5">
      <div className="flex items-start gap-2.5">
        <input
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 rounded border-input accent-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
          {...fieldA11y('termsAccepted', props.error)}
          {...props.registration}
        />
        <label htmlFor="termsAccepted" className="text-sm leading-snug text-muted-foreground">
          {t('registration.terms')}
        </label>
      </div>
      {props.error && (
        <p id="termsAccepted-error" role="alert" className="text-[13px] text-destructive">
          {t(props.error, { ns: 'validation' })}
        </p>
      )}
    </div>
  )
}
