import { useMutation } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { FormError } from '../../../components/form-message'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { errorMessage } from '../../../lib/error-message'
import { shownPasskeyError } from '../../../lib/passkey-dialog'
import type { Me } from '../../../lib/session'
import { useApi } from '../../../lib/use-api'
import { authApi, type TwoFactorChallenge } from '../api'

/** The second step of a password sign-in: a code from the authenticator app, a recovery code, or a passkey. */
export function SecondFactorStep(props: { challenge: TwoFactorChallenge; onSignedIn: (me: Me) => void; onBack: () => void }) {
  const { t } = useTranslation('auth')
  const api = useApi()
  const id = useId()
  const hasApp = props.challenge.methods.includes('totp')
  const [kind, setKind] = useState<'totp' | 'recovery'>('totp')
  const [code, setCode] = useState('')
  const verify = useMutation({ mutationFn: () => authApi.secondFactor(api, { code: code.trim(), kind }), onSuccess: props.onSignedIn })
  const passkey = useMutation({ mutationFn: () => authApi.passkey(api), onSuccess: props.onSignedIn })
  const shown = verify.error ?? shownPasskeyError(passkey.error)

  return (
    <div className="grid gap-4">
      {shown ? <FormError>{errorMessage(t, shown)}</FormError> : null}
      {hasApp && (
        <form
          className="grid gap-2"
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            if (code.trim()) verify.mutate()
          }}
        >
          <Label htmlFor={id}>{kind === 'totp' ? t('twoFactor.code') : t('twoFactor.recoveryCode')}</Label>
          <Input
            id={id}
            autoFocus
            autoComplete="one-time-code"
            inputMode={kind === 'totp' ? 'numeric' : 'text'}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <Button type="submit" disabled={verify.isPending || !code.trim()}>
            {verify.isPending ? t('common:loading') : t('twoFactor.verify')}
          </Button>
          <button
            type="button"
            className="justify-self-start text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
            onClick={() => {
              setKind(kind === 'totp' ? 'recovery' : 'totp')
              setCode('')
              verify.reset()
            }}
          >
            {kind === 'totp' ? t('twoFactor.useRecoveryCode') : t('twoFactor.useApp')}
          </button>
        </form>
      )}
      {props.challenge.methods.includes('passkey') && (
        <Button type="button" variant={hasApp ? 'outline' : 'default'} disabled={passkey.isPending} onClick={() => passkey.mutate()}>
          {passkey.isPending ? t('common:loading') : t('twoFactor.usePasskey')}
        </Button>
      )}
      <button type="button" className="text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline" onClick={props.onBack}>
        {t('twoFactor.back')}
      </button>
    </div>
  )
}
