import { KeyRound, Trash2 } from '../../../components/icons'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { confirm } from '../../../components/confirm-dialog'
import { EmptyState } from '../../../components/empty-state'
import { IconAction } from '../../../components/icon-action'
import { LocalDate } from '../../../components/local-date'
import { Badge } from '../../../components/ui/badge'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table'
import { useRevokeApiKey, type ApiKey } from '../api'

/** API keys with when they were made, expire and were last used; each can be revoked (after a confirmation). */
export function ApiKeysTable(props: { keys: ApiKey[]; showOwner?: boolean; labelledBy: string; empty: ReactNode }) {
  const { t } = useTranslation('apiKeys')
  const revoke = useRevokeApiKey()

  const confirmRevoke = (key: ApiKey) =>
    confirm({
      title: t('revokeTitle'),
      description: t('revokeDescription', { name: key.name }),
      confirmLabel: t('revokeConfirm'),
      destructive: true,
      action: () =>
        revoke.mutateAsync(key.id, {
          onSuccess: () => toast.success(t('revoked', { name: key.name })),
        }),
    })

  if (props.keys.length === 0) return props.empty
  return (
    <Table aria-labelledby={props.labelledBy}>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead>{t('columns.name')}</TableHead>
          {props.showOwner && <TableHead className="hidden sm:table-cell">{t('columns.owner')}</TableHead>}
          <TableHead className="hidden w-px md:table-cell">{t('columns.created')}</TableHead>
          <TableHead className="w-px">{t('columns.expires')}</TableHead>
          <TableHead className="w-px">{t('columns.lastUsed')}</TableHead>
          <TableHead className="w-px">
            <span className="sr-only">{t('columns.actions')}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {props.keys.map((key) => (
          <TableRow key={key.id} data-testid="api-key-row">
            <TableCell className="min-w-32">
              <div className="font-medium [overflow-wrap:anywhere]">{key.name}</div>
              {key.start && <div className="font-mono text-xs text-muted-foreground">{key.start}…</div>}
              {props.showOwner && <div className="text-[13px] text-muted-foreground sm:hidden">{key.owner.name}</div>}
            </TableCell>
            {props.showOwner && (
              <TableCell className="hidden sm:table-cell">
                <div>{key.owner.name}</div>
                <div className="text-[13px] text-muted-foreground [overflow-wrap:anywhere]">{key.owner.email}</div>
              </TableCell>
            )}
            <TableCell className="hidden whitespace-nowrap text-muted-foreground md:table-cell">
              <LocalDate iso={key.createdAt} />
            </TableCell>
            <TableCell className="whitespace-nowrap text-muted-foreground">
              <Expiry iso={key.expiresAt} />
            </TableCell>
            <TableCell className="whitespace-nowrap text-muted-foreground" data-testid="api-key-last-used">
              {key.lastUsedAt ? <LocalDate iso={key.lastUsedAt} /> : t('neverUsed')}
            </TableCell>
            <TableCell>
              <div className="flex justify-end">
                <IconAction side="left" label={t('revoke', { name: key.name })} destructive onClick={() => confirmRevoke(key)}>
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

function Expiry(props: { iso: string | null }) {
  const { t } = useTranslation('apiKeys')
  if (!props.iso) return t('noExpiry')
  // Compared when shown: an expired key keeps its row until it is revoked or cleaned up.
  if (Date.parse(props.iso) <= Date.now()) return <Badge variant="neutral">{t('expired')}</Badge>
  return <LocalDate iso={props.iso} />
}

export function NoApiKeys(props: { text: string; action?: ReactNode }) {
  const { t } = useTranslation('apiKeys')
  return <EmptyState inset icon={<KeyRound />} title={t('emptyTitle')} text={props.text} action={props.action} />
}
