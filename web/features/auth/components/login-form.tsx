import { useMutation, useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react'
import { Link, useNavigate } from '@tanstack/react-router'
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
import { sessionQueries } from '../../../lib/session'
import { loginErrors, type LoginErrors, type LoginValues } from '../login-values'
import { PasskeyIcon } from './passkey-icon'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

// The second step follows only a password that asks for one: fetched once the page is interactive, not before.
const loadSecondFactorStep = () => import('./second-factor-step')
const SecondFactorStep = lazy(() => loadSecondFactorStep().then((m) => ({ default: m.SecondFactorStep })))

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
  const formRef = useRef<HTMLFormElement>(null)
  // Checked on submit; after a failed submit, again as the fields change (as the other forms do).
  const [errors, setErrors] = useState<LoginErrors>({})
  const [submitted, setSubmitted] = useState(false)
  const values = (): LoginValues => {
    const data = new FormData(formRef.current!)
    return { email: String(data.get('email') ?? ''), password: String(data.get('password') ?? '') }
  }
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setSubmitted(true)
    const entered = values()
    const found = loginErrors(entered)
    setErrors(found)
    const invalid = (['email', 'password'] as const).find((name) => found[name])
    if (invalid) return formRef.current!.querySelector<HTMLInputElement>(`[name="${invalid}"]`)?.focus()
    login.mutate({ ...entered, email: entered.email.trim() })
  }
  const onChange = () => submitted && setErrors(loginErrors(values()))
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
  useEffect(() => void loadSecondFactorStep(), [])
  // Asked when the address field is left, for the address last left (a changed one asks again;
  // the answer to an earlier one is dropped). A mutation, not a query: the sign-in page needs no
  // query observer, and the answer is for this form only.
  const lookup = useMutation({ mutationFn: (email: string) => authApi.ssoLookup(api, email) })
  const checkEmail = (email: string) => {
    if (email === lookup.variables && !lookup.isError) return
    if (EMAIL.test(email)) lookup.mutate(email)
    else lookup.reset()
  }
  const sso = lookup.data?.sso === true
  const passwordAllowed = lookup.data?.passwordSignIn !== false
  const start = useMutation({
    mutationFn: () => authApi.ssoStart(api, values().email.trim()),
    onSuccess: ({ url }) => window.location.assign(url),
  })
  const failure = login.error ?? start.error ?? shownPasskeyError(passkey.error)

  if (challenge) {
    return (
      <div className="grid gap-4">
        <p className="text-sm text-muted-foreground">{challenge.methods.includes('totp') ? t('twoFactor.hint') : t('twoFactor.passkeyHint')}</p>
        <Suspense fallback={<p role="status" className="text-sm text-muted-foreground">{t('common:loading')}</p>}>
          <SecondFactorStep challenge={challenge} onSignedIn={signedIn} onBack={() => (setChallenge(null), login.reset())} />
        </Suspense>
      </div>
    )
  }

  return (
    // Sent before the page's script ran, it is sent once it has: it reads the fields themselves (decision 0134).
    <form ref={formRef} className="grid gap-4" noValidate onSubmit={onSubmit} onChange={onChange} data-early-submit="">
      {(failure || props.ssoError) && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {failure ? errorMessage(t, failure) : t(`sso.errors.${props.ssoError}`, { defaultValue: t('sso.errors.other') })}
        </p>
      )}
      <FormField id="email" label={t('email')} error={errors.email}>
        <Input
          type="email"
          autoComplete="email"
          name="email"
          {...fieldA11y('email', errors.email)}
          onBlur={(e) => checkEmail(e.target.value.trim().toLowerCase())}
        />
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
          <FormField id="password" label={t('password')} error={errors.password}>
            <Input
              type="password"
              autoComplete="current-password"
              name="password"
              {...fieldA11y('password', errors.password)}
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
        <PasskeyIcon aria-hidden />
        {passkey.isPending ? t('common:loading') : t('twoFactor.signInWithPasskey')}
      </Button>
    </form>
  )
}
