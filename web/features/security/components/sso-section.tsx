import { useSuspenseQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { SectionCard } from '../../../components/section-card'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { Textarea } from '../../../components/ui/textarea'
import { NativeSelect } from '../../../components/ui/native-select'
import { isApiError } from '../../../lib/api-client'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { securityQueries, useRemoveSso, useSaveSso, useVerifySsoDomain, type SsoSettings } from '../api'

type Fields = 'issuer' | 'clientId' | 'clientSecret' | 'domains' | 'protocol' | `saml.${'metadataXml' | 'metadataUrl' | 'entityId' | 'ssoUrl' | 'certificate'}`

/** Single sign-on with the organisation's identity provider (OpenID Connect or SAML 2.0): its settings and the domains it owns. */
export function SsoSection() {
  const { t } = useTranslation('security')
  const api = useApi()
  const settings = useSuspenseQuery(securityQueries.sso(api)).data
  const save = useSaveSso()
  const remove = useRemoveSso()
  const [form, setForm] = useState(() => formOf(settings))
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Fields, string>>>({})

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setFieldErrors({})
    const domains = form.domains.split(/[\s,]+/).filter(Boolean)
    const saml = { metadataXml: form.metadataXml, metadataUrl: form.metadataUrl, entityId: form.entityId, ssoUrl: form.ssoUrl, certificate: form.certificate }
    save.mutate(
      {
        protocol: form.protocol,
        ...(form.protocol === 'oidc'
          ? { issuer: form.issuer, clientId: form.clientId, clientSecret: form.clientSecret || undefined }
          : { saml: Object.fromEntries(Object.entries(saml).filter(([, v]) => v.trim())) }),
        domains,
        defaultRole: form.defaultRole,
        passwordSignIn: form.passwordSignIn,
      },
      {
        onSuccess: (saved) => {
          if (saved) setForm(formOf(saved))
          toast.success(t('sso.saved'))
        },
        onError: (error) => {
          const fields = isApiError(error) ? error.fields : undefined
          if (fields)
            setFieldErrors(
              Object.fromEntries(Object.keys(fields).map((f) => [f, t(`sso.fieldErrors.${f}`, { defaultValue: t('sso.fieldErrors.other') })])),
            )
        },
      },
    )
  }
  const failure = save.error && !(isApiError(save.error) && save.error.fields)
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }))

  return (
    <SectionCard id="sso" title={t('sso.title')} description={t('sso.text')}>
      <form className="grid gap-4" noValidate onSubmit={submit} aria-labelledby="sso-title">
        {failure && (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {errorMessage(t, save.error)}
          </p>
        )}
        <FormField id="sso-protocol" label={t('sso.protocol')}>
          <NativeSelect id="sso-protocol" value={form.protocol} onChange={(e) => set({ protocol: e.currentTarget.value as 'oidc' | 'saml' })}>
            <option value="oidc">{t('sso.protocols.oidc')}</option>
            <option value="saml">{t('sso.protocols.saml')}</option>
          </NativeSelect>
        </FormField>
        {form.protocol === 'oidc' ? (
          <>
            <p className="text-sm text-muted-foreground">
              {t('sso.callback')} <code className="break-all rounded bg-muted px-1 py-0.5 text-xs">{settings.callbackUrl}</code>
            </p>
            <FormField id="sso-issuer" label={t('sso.issuer')} error={fieldErrors.issuer}>
              <Input
                type="url"
                placeholder="https://login.example.com"
                value={form.issuer}
                onChange={(e) => set({ issuer: e.currentTarget.value })}
                {...fieldA11y('sso-issuer', fieldErrors.issuer)}
              />
            </FormField>
            <FormField id="sso-client-id" label={t('sso.clientId')} error={fieldErrors.clientId}>
              <Input
                value={form.clientId}
                onChange={(e) => set({ clientId: e.currentTarget.value })}
                {...fieldA11y('sso-client-id', fieldErrors.clientId)}
              />
            </FormField>
            <FormField id="sso-client-secret" label={t('sso.clientSecret')} error={fieldErrors.clientSecret}>
              <Input
                type="password"
                autoComplete="off"
                placeholder={settings.clientSecretSet ? t('sso.secretKept') : ''}
                value={form.clientSecret}
                onChange={(e) => set({ clientSecret: e.currentTarget.value })}
                {...fieldA11y('sso-client-secret', fieldErrors.clientSecret)}
              />
            </FormField>
          </>
        ) : (
          <SamlFields settings={settings} form={form} set={set} errors={fieldErrors} />
        )}
        <FormField id="sso-domains" label={t('sso.domains')} error={fieldErrors.domains}>
          <Input
            placeholder="example.com, example.de"
            value={form.domains}
            onChange={(e) => set({ domains: e.currentTarget.value })}
            {...fieldA11y('sso-domains', fieldErrors.domains)}
          />
        </FormField>
        <FormField id="sso-role" label={t('sso.defaultRole')}>
          <NativeSelect id="sso-role" value={form.defaultRole} onChange={(e) => set({ defaultRole: e.currentTarget.value as 'user' | 'admin' })}>
            <option value="user">{t('sso.roles.user')}</option>
            <option value="admin">{t('sso.roles.admin')}</option>
          </NativeSelect>
        </FormField>
        <label className="flex items-center gap-3 text-sm font-medium">
          <input
            type="checkbox"
            className="size-4 accent-primary"
            checked={form.passwordSignIn}
            onChange={(e) => set({ passwordSignIn: e.currentTarget.checked })}
          />
          {t('sso.passwordSignIn')}
        </label>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? t('common:loading') : t('sso.save')}
          </Button>
          {settings.configured && (
            <Button
              type="button"
              variant="outline"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => {
                    setForm(formOf(null))
                    toast.success(t('sso.removed'))
                  },
                  onError: (error) => toast.error(errorMessage(t, error)),
                })
              }
            >
              {t('sso.remove')}
            </Button>
          )}
        </div>
      </form>
      {settings.domains.length > 0 && <DomainList domains={settings.domains} />}
    </SectionCard>
  )
}

function DomainList(props: { domains: SsoSettings['domains'] }) {
  const { t } = useTranslation('security')
  const verify = useVerifySsoDomain()
  return (
    <ul className="mt-6 grid gap-3" aria-label={t('sso.domainsTitle')}>
      {props.domains.map((d) => (
        <li key={d.domain} className="grid gap-2 rounded-md border p-3 text-sm">
          <div className="flex items-center justify-between gap-2">
            <span className="font-medium">{d.domain}</span>
            <span className={d.verified ? 'text-emerald-700 dark:text-emerald-400' : 'text-muted-foreground'}>
              {d.verified ? t('sso.verified') : t('sso.unverified')}
            </span>
          </div>
          {!d.verified && d.record && (
            <>
              <p className="text-muted-foreground">{t('sso.recordText')}</p>
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
                <dt>{t('sso.recordName')}</dt>
                <dd>
                  <code className="break-all">{d.record.name}</code>
                </dd>
                <dt>{t('sso.recordValue')}</dt>
                <dd>
                  <code className="break-all">{d.record.value}</code>
                </dd>
              </dl>
              <div>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={verify.isPending}
                  onClick={() =>
                    verify.mutate(d.domain, {
                      onSuccess: () => toast.success(t('sso.domainVerified', { domain: d.domain })),
                      onError: (error) => toast.error(errorMessage(t, error)),
                    })
                  }
                >
                  {t('sso.verify')}
                </Button>
              </div>
            </>
          )}
        </li>
      ))}
    </ul>
  )
}

type Form = ReturnType<typeof formOf>

/** SAML 2.0: what to register at the identity provider, and the provider's metadata or its entity ID, sign-in URL and certificate. */
function SamlFields(props: { settings: SsoSettings; form: Form; set: (patch: Partial<Form>) => void; errors: Partial<Record<Fields, string>> }) {
  const { t, i18n } = useTranslation('security')
  const { settings, form, set, errors } = props
  const text = (field: 'metadataUrl' | 'entityId' | 'ssoUrl', id: string, type = 'text') => (
    <FormField id={id} label={t(`sso.${field}`)} error={errors[`saml.${field}`]}>
      <Input type={type} value={form[field]} onChange={(e) => set({ [field]: e.currentTarget.value })} {...fieldA11y(id, errors[`saml.${field}`])} />
    </FormField>
  )
  const area = (field: 'metadataXml' | 'certificate', id: string) => (
    <FormField id={id} label={t(`sso.${field}`)} error={errors[`saml.${field}`]}>
      <Textarea
        rows={4}
        spellCheck={false}
        className="font-mono text-xs"
        value={form[field]}
        onChange={(e) => set({ [field]: e.currentTarget.value })}
        {...fieldA11y(id, errors[`saml.${field}`])}
      />
    </FormField>
  )
  return (
    <>
      <dl className="grid gap-1 text-sm text-muted-foreground">
        <dt>{t('sso.spEntityId')}</dt>
        <dd>
          <code className="break-all rounded bg-muted px-1 py-0.5 text-xs">{settings.serviceProvider.entityId}</code>
        </dd>
        <dt>{t('sso.spAcsUrl')}</dt>
        <dd>
          <code className="break-all rounded bg-muted px-1 py-0.5 text-xs">{settings.serviceProvider.acsUrl}</code>
        </dd>
      </dl>
      {settings.saml && (
        <p className="text-sm">
          {t('sso.samlCurrent', { ssoUrl: settings.saml.ssoUrl, entityId: settings.saml.entityId })}{' '}
          {settings.saml.certificateValidTo &&
            t('sso.certificateValidTo', { date: new Date(settings.saml.certificateValidTo).toLocaleDateString(i18n.language) })}
        </p>
      )}
      <p className="text-sm text-muted-foreground">
        {t('sso.samlHint')} {settings.saml && t('sso.samlKeep')}
      </p>
      {area('metadataXml', 'sso-saml-metadata')}
      {text('metadataUrl', 'sso-saml-metadata-url', 'url')}
      {text('entityId', 'sso-saml-entity-id')}
      {text('ssoUrl', 'sso-saml-sso-url', 'url')}
      {area('certificate', 'sso-saml-certificate')}
    </>
  )
}

function formOf(s: SsoSettings | null) {
  return {
    protocol: s?.protocol ?? ('oidc' as 'oidc' | 'saml'),
    metadataXml: '',
    metadataUrl: '',
    entityId: '',
    ssoUrl: '',
    certificate: '',
    issuer: s?.protocol === 'saml' ? '' : (s?.issuer ?? ''),
    clientId: s?.clientId ?? '',
    clientSecret: '',
    domains: s?.domains.map((d) => d.domain).join(', ') ?? '',
    defaultRole: s?.defaultRole ?? ('user' as 'user' | 'admin'),
    passwordSignIn: s?.passwordSignIn ?? true,
  }
}
