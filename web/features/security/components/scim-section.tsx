import { zodResolver } from '@hookform/resolvers/zod'
import { useSuspenseQuery } from '@tanstack/react-query'
import { KeyRound, Plus, Trash2 } from '../../../components/icons'
import { useState, useSyncExternalStore } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { ShownOncePanel } from '../../../components/shown-once-panel'
import { EmptyState } from '../../../components/empty-state'
import { IconAction } from '../../../components/icon-action'
import { LocalDate } from '../../../components/local-date'
import { SectionCard } from '../../../components/section-card'
import { Button } from '../../../components/ui/button'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { scimTokenSchema, type ScimTokenValues } from '../schemas'
import { scimQueries, useCreateScimToken, useRevokeScimToken, type CreatedScimToken, type ScimToken } from '../scim-api'

/** Admin → Security: SCIM provisioning. Tokens for the identity provider (shown once), their last use, revoking. */
export function ScimSection() {
  const { t } = useTranslation('security')
  const api = useApi()
  const tokens = useSuspenseQuery(scimQueries.tokens(api)).data
  const origin = useSyncExternalStore(noSubscription, () => location.origin, () => '')
  return (
    <SectionCard id="scim" title={t('scim.title')} description={t('scim.description')}>
      <div className="grid gap-4">
        <p className="text-sm text-muted-foreground">{t('scim.endpoint', { url: `${origin}/scim/v2` })}</p>
        <CreateScimToken />
        <ScimTokensTable tokens={tokens} />
      </div>
    </SectionCard>
  )
}

const noSubscription = () => () => {}

function CreateScimToken() {
  const { t } = useTranslation('security')
  const create = useCreateScimToken()
  const [created, setCreated] = useState<CreatedScimToken | null>(null)
  const form = useForm<ScimTokenValues>({ resolver: zodResolver(scimTokenSchema), defaultValues: { name: '' } })
  const error = form.formState.errors.name?.message
  const submit = form.handleSubmit((values) =>
    create.mutate(values.name, {
      onSuccess: (token) => {
        form.reset()
        setCreated(token)
      },
    }),
  )

  if (created) {
    return (
      <ShownOncePanel
        title={t('scim.createdTitle', { name: created.name })}
        text={t('scim.createdText')}
        value={created.token}
        label={t('scim.newToken')}
        testId="new-scim-token"
        labels={{ copy: t('scim.copy'), copied: t('scim.copied'), copyFailed: t('scim.copyFailed'), done: t('scim.done') }}
        onDone={() => setCreated(null)}
      />
    )
  }
  return (
    <form className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start" noValidate onSubmit={submit} aria-label={t('scim.create')}>
      {create.error && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive sm:col-span-2">
          {errorMessage(t, create.error)}
        </p>
      )}
      <FormField id="scim-token-name" label={t('scim.name')} error={error}>
        <Input placeholder={t('scim.namePlaceholder')} {...fieldA11y('scim-token-name', error)} {...form.register('name')} />
      </FormField>
      <Button type="submit" className="sm:mt-[1.375rem]" disabled={create.isPending}>
        <Plus />
        {t('scim.create')}
      </Button>
    </form>
  )
}

function ScimTokensTable(props: { tokens: ScimToken[] }) {
  const { t } = useTranslation('security')
  const revoke = useRevokeScimToken()
  const confirmRevoke = (token: ScimToken) =>
    confirm({
      title: t('scim.revokeTitle'),
      description: t('scim.revokeDescription', { name: token.name }),
      confirmLabel: t('scim.revokeConfirm'),
      destructive: true,
      action: () => revoke.mutateAsync(token.id, { onSuccess: () => toast.success(t('scim.revoked', { name: token.name })) }),
    })

  if (props.tokens.length === 0) return <EmptyState inset icon={<KeyRound />} title={t('scim.emptyTitle')} text={t('scim.emptyText')} />
  return (
    <Table aria-label={t('scim.tokens')}>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>{t('scim.columns.name')}</TableHead>
          <TableHead className="hidden w-px md:table-cell">{t('scim.columns.created')}</TableHead>
          <TableHead className="w-px">{t('scim.columns.lastUsed')}</TableHead>
          <TableHead className="w-px">
            <span className="sr-only">{t('scim.columns.actions')}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {props.tokens.map((token) => (
          <TableRow key={token.id} data-testid="scim-token-row">
            <TableCell className="min-w-32">
              <div className="font-medium [overflow-wrap:anywhere]">{token.name}</div>
              <div className="font-mono text-xs text-muted-foreground">{token.start}…</div>
              {token.createdBy && <div className="text-[13px] text-muted-foreground">{t('scim.createdBy', { name: token.createdBy.name })}</div>}
            </TableCell>
            <TableCell className="hidden whitespace-nowrap text-muted-foreground md:table-cell">
              <LocalDate iso={token.createdAt} />
            </TableCell>
            <TableCell className="whitespace-nowrap text-muted-foreground">{token.lastUsedAt ? <LocalDate iso={token.lastUsedAt} /> : t('scim.neverUsed')}</TableCell>
            <TableCell>
              <div className="flex justify-end">
                <IconAction side="left" label={t('scim.revoke', { name: token.name })} destructive onClick={() => confirmRevoke(token)}>
                  <Trash2 />
                </IconAction>
              </div>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
