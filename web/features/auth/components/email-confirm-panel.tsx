import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useForm } from 'react-hook-form'
import { Trans, useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { authApi } from '../api'
import { sessionQueries, signOut } from '../../../lib/session'
import { emailOnlySchema, type EmailOnlyValues } from '../schemas'
import { FormError, FormNotice } from '../../../components/form-message'

/**
 * What an unverified user can do: re-check after clicking the link, or have the mail sent again.
 * GET /auth/me refuses unverified users, so the address comes from the page's search or a field.
 */
export function EmailConfirmPanel(props: { email?: string }) {
  const { t } = useTranslation('auth')
  const api = useApi()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const form = useForm<EmailOnlyValues>({
    resolver: zodResolver(emailOnlySchema),
    defaultValues: { email: props.email ?? '' },
  })
  const meQuery = sessionQueries.me(api)

  const recheck = useMutation({
    // A cached answer could be from before the confirmation; ask the server again.
    mutationFn: () => queryClient.fetchQuery({ ...meQuery, staleTime: 0 }),
    onSuccess: async (me) => {
      if (me.emailVerified) await navigate({ to: '/chat' })
    },
    onError: async (error) => {
      queryClient.removeQueries({ queryKey: meQuery.queryKey })
      if (isApiError(error) && error.status === 401) await navigate({ to: '/login' })
    },
  })
  const resend = useMutation({ mutationFn: (email: string) => authApi.resendConfirmation(api, email) })

  const stillUnverified = isApiError(recheck.error) && recheck.error.code === 'EMAIL_NOT_VERIFIED'
  const { errors } = form.formState
  const sendAgain = form.handleSubmit(({ email }) => {
    recheck.reset()
    resend.mutate(email)
  })

  return (
    <div className="grid gap-4">
      <p className="text-sm">
        {props.email ? (
          <Trans
            t={t}
            i18nKey="emailConfirm.sentTo"
            values={{ email: props.email }}
            components={{ strong: <strong className="font-semibold break-words" /> }}
          />
        ) : (
          t('emailConfirm.sentToYou')
        )}{' '}
        {t('emailConfirm.openLink')}
      </p>

      {stillUnverified && <FormError>{t('emailConfirm.stillUnverified')}</FormError>}
      {recheck.error && !stillUnverified && <FormError>{errorMessage(t, recheck.error)}</FormError>}
      <Button
        onClick={() => {
          resend.reset()
          recheck.mutate()
        }}
        disabled={recheck.isPending}
      >
        {recheck.isPending ? t('common:loading') : t('emailConfirm.confirmed')}
      </Button>

      <div className="grid gap-3 border-t pt-4">
        <p className="text-sm text-muted-foreground">{t('emailConfirm.noMail')}</p>
        {resend.isSuccess && <FormNotice>{t('emailConfirm.resent')}</FormNotice>}
        {resend.error && <FormError>{errorMessage(t, resend.error)}</FormError>}
        <form className="grid gap-3" noValidate onSubmit={sendAgain}>
          {!props.email && (
            <FormField id="email" label={t('email')} error={errors.email?.message}>
              <Input type="email" autoComplete="email" {...fieldA11y('email', errors.email?.message)} {...form.register('email')} />
            </FormField>
          )}
          <Button type="submit" variant="outline" disabled={resend.isPending}>
            {resend.isPending ? t('common:loading') : t('emailConfirm.resend')}
          </Button>
        </form>
      </div>
    </div>
  )
}

/** Signs out (there may be a session from registering) and goes back to the sign-in page. */
export function SignOutLink() {
  const { t } = useTranslation('auth')
  const api = useApi()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const leave = useMutation({
    mutationFn: () => signOut(api),
    onSettled: async () => {
      queryClient.removeQueries({ queryKey: sessionQueries.me(api).queryKey })
      await navigate({ to: '/login' })
    },
  })
  return (
    <button
      type="button"
      className="font-medium text-foreground underline-offset-4 hover:underline disabled:opacity-50"
      disabled={leave.isPending}
      onClick={() => leave.mutate()}
    >
      {t('emailConfirm.signOut')}
    </button>
  )
}
