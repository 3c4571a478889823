import { useSuspenseQuery } from '@tanstack/react-query'
import { KeyRound, Pencil, Trash2 } from '../../../components/icons'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { confirm } from '../../../components/confirm-dialog'
import { CopyField } from '../../../components/copy-field'
import { FormError } from '../../../components/form-message'
import { IconAction } from '../../../components/icon-action'
import { LocalDate } from '../../../components/local-date'
import { SectionCard } from '../../../components/section-card'
import { toast } from '../../../components/toaster'
import { Badge } from '../../../components/ui/badge'
import { Button } from '../../../components/ui/button'
import { Input } from '../../../components/ui/input'
import { Label } from '../../../components/ui/label'
import { errorMessage } from '../../../lib/error-message'
import { shownPasskeyError } from '../../../lib/passkey-dialog'
import { useApi } from '../../../lib/use-api'
import {
  twoFactorQueries,
  useAddPasskey,
  useConfirmTotp,
  useDisableTotp,
  useRemovePasskey,
  useRenamePasskey,
  useRenewRecoveryCodes,
  useStartTotp,
  type Passkey,
  type TotpSetup,
} from '../two-factor'
import { RecoveryCodes } from './recovery-codes'

/** One labelled input (a password, a code, a name) with its button. */
function InlineForm(props: { label: string; type?: string; autoComplete?: string; inputMode?: 'numeric'; submit: string; pending: boolean; onSubmit: (value: string) => void; error?: unknown; testId?: string }) {
  const { t } = useTranslation('settings')
  const id = useId()
  const [value, setValue] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (value.trim()) props.onSubmit(value.trim())
  }
  return (
    <form className="grid gap-2 sm:max-w-md" noValidate onSubmit={submit}>
      {props.error ? <FormError>{errorMessage(t, props.error)}</FormError> : null}
      <Label htmlFor={id}>{props.label}</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input id={id} type={props.type ?? 'text'} autoComplete={props.autoComplete} inputMode={props.inputMode} value={value} onChange={(e) => setValue(e.target.value)} data-testid={props.testId} />
        <Button type="submit" disabled={props.pending || !value.trim()} className="shrink-0">
          {props.pending ? t('common:loading') : props.submit}
        </Button>
      </div>
    </form>
  )
}

/** Setting up an authenticator app: the password, then the key for the app and its first code, then the recovery codes. */
function TotpSetupFlow(props: { onStarted: () => void; onDone: () => void }) {
  const { t } = useTranslation('settings')
  const start = useStartTotp()
  const confirmCode = useConfirmTotp()
  const [setup, setSetup] = useState<TotpSetup | null>(null)
  const [confirmed, setConfirmed] = useState(false)
  const copyLabels = { copy: t('twoFactor.copy'), copied: t('twoFactor.copied'), copyFailed: t('twoFactor.copyFailed') }
  if (setup && confirmed) return <RecoveryCodes codes={setup.recoveryCodes} onDone={props.onDone} />
  if (setup)
    return (
      <div className="grid gap-4">
        <p className="text-sm">{t('twoFactor.scan')}</p>
        <CopyField value={setup.secret} label={t('twoFactor.secret')} testId="totp-secret" {...copyLabels} />
        <CopyField value={setup.totpUri} label={t('twoFactor.uri')} testId="totp-uri" {...copyLabels} />
        <InlineForm
          label={t('twoFactor.code')}
          autoComplete="one-time-code"
          inputMode="numeric"
          submit={t('twoFactor.confirm')}
          pending={confirmCode.isPending}
          error={confirmCode.error}
          testId="totp-code"
          onSubmit={(code) => confirmCode.mutate(code, { onSuccess: () => setConfirmed(true) })}
        />
      </div>
    )
  return (
    <InlineForm
      label={t('twoFactor.password')}
      type="password"
      autoComplete="current-password"
      submit={t('twoFactor.setUp')}
      pending={start.isPending}
      error={start.error}
      testId="totp-password"
      onSubmit={(password) => start.mutate(password, { onSuccess: (started) => (setSetup(started), props.onStarted()) })}
    />
  )
}

/** With an app set up: new recovery codes, or removing the app; both ask for the password. */
function TotpManage(props: { codesLeft: number | null }) {
  const { t } = useTranslation('settings')
  const renew = useRenewRecoveryCodes()
  const disable = useDisableTotp()
  const [action, setAction] = useState<'renew' | 'disable' | null>(null)
  const [codes, setCodes] = useState<string[] | null>(null)
  if (codes) return <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
  return (
    <div className="grid gap-3">
      <p className="text-sm">{t('twoFactor.codesLeft', { count: props.codesLeft ?? 0 })}</p>
      {action === null ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setAction('renew')}>
            {t('twoFactor.renew')}
          </Button>
          <Button variant="outline" onClick={() => setAction('disable')}>
            {t('twoFactor.disable')}
          </Button>
        </div>
      ) : (
        <InlineForm
          label={t('twoFactor.password')}
          type="password"
          autoComplete="current-password"
          submit={action === 'renew' ? t('twoFactor.renew') : t('twoFactor.disable')}
          pending={renew.isPending || disable.isPending}
          error={action === 'renew' ? renew.error : disable.error}
          onSubmit={(password) =>
            action === 'renew'
              ? renew.mutate(password, { onSuccess: (r) => (setCodes(r.recoveryCodes), setAction(null)) })
              : disable.mutate(password, { onSuccess: () => (setAction(null), toast.success(t('twoFactor.disabled'))) })
          }
        />
      )}
    </div>
  )
}

function PasskeyRow(props: { passkey: Passkey }) {
  const { t } = useTranslation('settings')
  const rename = useRenamePasskey()
  const remove = useRemovePasskey()
  const [editing, setEditing] = useState(false)
  const name = props.passkey.name || t('twoFactor.passkeyUnnamed')
  return (
    <li className="grid gap-2 px-4 py-3 sm:px-5" data-testid="passkey">
      <div className="flex items-center gap-3">
        <KeyRound aria-hidden className="size-4 shrink-0 text-muted-foreground" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium">{name}</p>
          {props.passkey.createdAt && (
            <p className="text-xs text-muted-foreground">
              {t('twoFactor.passkeyAdded')} <LocalDate iso={props.passkey.createdAt} />
            </p>
          )}
        </div>
        {props.passkey.backedUp && <Badge>{t('twoFactor.synced')}</Badge>}
        <IconAction label={t('twoFactor.renamePasskey', { name })} onClick={() => setEditing((v) => !v)}>
          <Pencil />
        </IconAction>
        <IconAction
          destructive
          side="left"
          label={t('twoFactor.removePasskey', { name })}
          onClick={() =>
            confirm({
              title: t('twoFactor.removePasskeyTitle'),
              description: t('twoFactor.removePasskeyText', { name }),
              confirmLabel: t('twoFactor.removePasskeyConfirm'),
              destructive: true,
              action: () => remove.mutateAsync(props.passkey.id),
            })
          }
        >
          <Trash2 />
        </IconAction>
      </div>
      {editing && (
        <InlineForm
          label={t('twoFactor.passkeyName')}
          submit={t('twoFactor.save')}
          pending={rename.isPending}
          error={rename.error}
          onSubmit={(value) => rename.mutate({ id: props.passkey.id, name: value }, { onSuccess: () => setEditing(false) })}
        />
      )}
    </li>
  )
}

/**
 * Settings → Account (and the page a member is sent to when their organisation requires a second
 * factor): an authenticator app with recovery codes, and passkeys.
 */
export function TwoFactorSetting() {
  const { t } = useTranslation('settings')
  const api = useApi()
  const status = useSuspenseQuery(twoFactorQueries.status(api)).data
  const passkeys = useSuspenseQuery(twoFactorQueries.passkeys(api)).data
  const add = useAddPasskey()
  // Kept while the app is being set up: its recovery codes show after the status already says it is on.
  const [settingUp, setSettingUp] = useState(false)
  const [formKey, setFormKey] = useState(0)

  return (
    <SectionCard id="two-factor" title={t('twoFactor.title')} description={status.required && status.hasPassword ? t('twoFactor.requiredHint') : t('twoFactor.hint')} flush>
      <div className="grid gap-3 border-b px-4 py-4 sm:px-5">
        <h3 className="flex items-center gap-2 text-sm font-semibold">
          {t('twoFactor.app')}
          {status.totp && <Badge variant="success">{t('twoFactor.on')}</Badge>}
        </h3>
        {status.totp && !settingUp ? (
          <TotpManage codesLeft={status.recoveryCodesLeft} />
        ) : settingUp || status.hasPassword ? (
          <>
            <p className="text-sm text-muted-foreground">{t('twoFactor.appHint')}</p>
            <TotpSetupFlow onStarted={() => setSettingUp(true)} onDone={() => setSettingUp(false)} />
          </>
        ) : (
          <p className="text-sm text-muted-foreground">{t('twoFactor.noPassword')}</p>
        )}
      </div>
      <div className="grid gap-3 px-4 py-4 sm:px-5">
        <h3 className="text-sm font-semibold">{t('twoFactor.passkeys')}</h3>
        <p className="text-sm text-muted-foreground">{t('twoFactor.passkeysHint')}</p>
        {passkeys.length > 0 && (
          <ul className="-mx-4 divide-y border-y sm:-mx-5">
            {passkeys.map((p) => (
              <PasskeyRow key={p.id} passkey={p} />
            ))}
          </ul>
        )}
        <InlineForm
          key={formKey}
          label={t('twoFactor.passkeyName')}
          submit={t('twoFactor.addPasskey')}
          pending={add.isPending}
          error={shownPasskeyError(add.error)}
          testId="passkey-name"
          onSubmit={(name) => add.mutate(name, { onSuccess: () => (setFormKey((k) => k + 1), toast.success(t('twoFactor.passkeyAddedToast'))) })}
        />
      </div>
    </SectionCard>
  )
}
