import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { KeyRound } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate } from '@tanstack/react-router'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { errorMessage } from '../../../lib/error-message'
import { adoptAccountLanguage } from '../../../lib/i18n'
import { shownPasskeyError } from '../../../lib/passkey-dialog'
import { safeRedirect } from '../../../lib/safe-redirect'
import { useApi } from '../../../lib/use-api'
import { authApi, isChallenge, type TwoFactorChallenge } from '../api'
import type { Me } from '../../../lib/session'
import { SecondFactorStep } from './second-factor-step'
import { sessionQueries } from '../../../lib/session'
import { loginSchema, type LoginValues } from '../schemas'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * E-mail first: once the address is typed, the page asks whether its domain signs in through an
 * organisation's identity provider and then offers single sign-on (and hides the password when the
 * organisation allows none). `ssoError` is the code the SSO callback sent the browser back with.
 */
export function LoginForm(props: { redirect?: string; ssoError?: string }) {
  const { t, i18n } = useTranslation('auth')
  const api = useApi()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const form = useForm<LoginValues>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } })
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null)
  const signedIn = async (me: Me) => {
    // An unconfirmed user must not pass the protected layout from a cached answer.
    if (!me.emailVerified) return navigate({ to: '/email-confirm', search: { email: me.email } })
    queryClient.setQueryData(sessionQueries.me(api).queryKey, me)
    await adoptAccountLanguage(i18n, me.locale)
    await navigate({ href: me.twoFactorSetupRequired ? '/two-factor/setup' : safeRedirect(props.redirect) })
  }
  const login = useMutation({
    mutationFn: (values: LoginValues) => authApi.login(api, values),
    onSuccess: (answer) => (isChallenge(answer) ? setChallenge(answer) : signedIn(answer)),
  })
  const passkey = useMutation({ mutationFn: () => authApi.passkey(api), onSuccess: signedIn })
  const { errors } = form.formState
  const [checkedEmail, setCheckedEmail] = useState('')
  const lookup = useQuery({
    queryKey: ['sso-lookup', checkedEmail],
    queryFn: () => authApi.ssoLookup(api, checkedEmail),
    enabled: EMAIL.test(checkedEmail),
    staleTime: 60_000,
  })
  const sso = lookup.data?.sso === true
  const passwordAllowed = lookup.data?.passwordSignIn !== false
  const start = useMutation({
    mutationFn: () => authApi.ssoStart(api, form.getValues('email').trim()),
    onSuccess: ({ url }) => window.location.assign(url),
  })
  const emailField = form.register('email', { onBlur: (e) => setCheckedEmail(String(e.target.value).trim().toLowerCase()) })
  const failure = login.error ?? start.error ?? shownPasskeyError(passkey.error)

  if (challenge) {
    return (
      <div className="grid gap-4">
        <p className="text-sm text-muted-foreground">{challenge.methods.includes('totp') ? t('twoFactor.hint') : t('twoFactor.passkeyHint')}</p>
        <SecondFactorStep challenge={challenge} onSignedIn={signedIn} onBack={() => (setChallenge(null), login.reset())} />
      </div>
    )
  }

  return (
    <form className="grid gap-4" noValidate onSubmit={form.handleSubmit((v) => login.mutate(v))}>
      {(failure || props.ssoError) && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {failure ? errorMessage(t, failure) : t(`sso.errors.${props.ssoError}`, { defaultValue: t('sso.errors.other') })}
        </p>
      )}
      <FormField id="email" label={t('email')} error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...fieldA11y('email', errors.email?.message)} {...emailField} />
      </FormField>
      {sso && (
        <div className="grid gap-2">
          <p className="text-sm text-muted-foreground">{t('sso.hint')}</p>
          <Button type="button" disabled={start.isPending} onClick={() => start.mutate()}>
            {start.isPending ? t('common:loading') : t('sso.continue')}
          </Button>
        </div>
      )}
      {passwordAllowed && (
        <>
          <FormField id="password" label={t('password')} error={errors.password?.message}>
            <Input
              type="password"
              autoComplete="current-password"
              {...fieldA11y('password', errors.password?.message)}
              {...form.register('password')}
            />
          </FormField>
          <div className="-mt-2 text-right text-sm">
            <Link to="/password/forgot" className="text-muted-foreground underline-offset-4 hover:text-foreground hover:underline">
              {t('forgotPassword')}
            </Link>
          </div>
          <Button type="submit" variant={sso ? 'outline' : 'default'} disabled={login.isPending}>
            {login.isPending ? t('common:loading') : t('signIn')}
          </Button>
        </>
      )}
      <Button type="button" variant="outline" disabled={passkey.isPending} onClick={() => passkey.mutate()}>
        <KeyRound aria-hidden />
        {passkey.isPending ? t('common:loading') : t('twoFactor.signInWithPasskey')}
      </Button>
    </form>
  )
}
