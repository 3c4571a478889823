import { FileText, LoaderCircle, RotateCw, TriangleAlert, X } from '../../../components/icons'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Tooltip } from '../../../components/ui/tooltip'
import { cn } from '../../../lib/cn'
import { lazyPart } from '../../../lib/lazy-part'
import type { Source } from '../api'

// The details form (react-hook-form, zod) is not among the chat's first scripts: it loads when a
// file's details are first opened.
const SourceDetailsDialog = lazyPart(() => import('./source-details-dialog').then((m) => m.SourceDetailsDialog))

/** attached: chosen for a chat that does not exist yet; the others as the server (or the upload) says. */
export type ChipStatus = 'attached' | 'uploading' | 'processing' | 'ready' | 'failed'

export type Chip = {
  key: string
  name: string
  status: ChipStatus
  /** Why it failed, translated. */
  reason?: string
  /** While uploading: the percent sent so far. */
  progress?: number
  /** Removing it cancels its upload. */
  cancels?: boolean
  /** Left out while the file cannot be removed (on its way to the server). */
  onRemove?: () => void
  /** A file the server could not process: processed again from the stored file. */
  onRetry?: () => void
  /** A file the chat has: its name opens its details (name and description). */
  details?: { threadId: string; source: Source }
}

/** The files of a chat (or of the chat about to start), above the message field. */
export function SourceChips(props: { chips: Chip[]; className?: string }) {
  const { t } = useTranslation('sources')
  if (props.chips.length === 0) return null
  return (
    <ul aria-label={t('chips.label')} className={cn('flex flex-wrap gap-1.5 px-3 pt-3', props.className)}>
      {props.chips.map((chip) => (
        <SourceChip key={chip.key} chip={chip} />
      ))}
    </ul>
  )
}

function SourceChip({ chip }: { chip: Chip }) {
  const { t } = useTranslation('sources')
  const status = chip.progress === undefined ? t(`status.${chip.status}`) : t('status.uploadingPercent', { percent: chip.progress })
  const removeLabel = t(chip.cancels ? 'chips.cancel' : 'chips.remove', { name: chip.name })
  const [editing, setEditing] = useState(false)
  const [opened, setOpened] = useState(false)
  if (editing && !opened) setOpened(true)
  const busy = chip.status === 'uploading' || chip.status === 'processing'
  const failed = chip.status === 'failed'
  const Icon = busy ? LoaderCircle : failed ? TriangleAlert : FileText
  return (
    <li
      data-testid="source-chip"
      data-status={chip.status}
      title={[chip.name, chip.status === 'attached' || chip.status === 'ready' ? null : status, chip.reason].filter(Boolean).join(' — ')}
      className={cn(
        'flex h-8 max-w-full items-center gap-1.5 rounded-lg border bg-muted/40 pl-2 pr-1 text-[13px]',
        !chip.onRemove && 'pr-2.5',
        failed && 'border-destructive/40 bg-destructive/5',
      )}
    >
      <Icon aria-hidden className={cn('size-4 shrink-0 text-muted-foreground', busy && 'animate-spin', failed && 'text-destructive')} />
      {chip.details ? (
        <>
          <button
            type="button"
            onClick={() => setEditing(true)}
            onPointerEnter={() => void SourceDetailsDialog.preload()}
            onFocus={() => void SourceDetailsDialog.preload()}
            aria-label={t('details.open', { name: chip.name })}
            className="min-w-0 max-w-48 truncate rounded-sm font-medium outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
          >
            {chip.name}
          </button>
          {/* Once opened it stays mounted, so that it can animate its closing. */}
          {(editing || opened) && (
            <SourceDetailsDialog threadId={chip.details.threadId} source={chip.details.source} open={editing} onOpenChange={setEditing} />
          )}
        </>
      ) : (
        <span className="min-w-0 max-w-48 truncate font-medium">{chip.name}</span>
      )}
      {chip.status === 'ready' && <span className="sr-only">{status}</span>}
      {chip.status !== 'ready' && chip.status !== 'attached' && (
        <Tooltip label={chip.reason ?? status} side="top" disabled={!chip.reason} className="max-w-xs leading-snug">
          <span tabIndex={chip.reason ? 0 : undefined} className={cn('shrink-0 text-xs text-muted-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring', failed && 'text-destructive')}>
            {status}
            {chip.reason && <span className="sr-only">: {chip.reason}</span>}
          </span>
        </Tooltip>
      )}
      {chip.onRetry && (
        <button
          type="button"
          onClick={chip.onRetry}
          aria-label={t('chips.retry', { name: chip.name })}
          title={t('chips.retry', { name: chip.name })}
          className="grid size-6 shrink-0 place-items-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring"
        >
          <RotateCw aria-hidden className="size-3.5" />
        </button>
      )}
      {chip.onRemove && (
      <button
        type="button"
        onClick={chip.onRemove}
        aria-label={removeLabel}
        title={removeLabel}
        className="grid size-6 shrink-0 place-items-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        <X aria-hidden className="size-3.5" />
      </button>
      )}
    </li>
  )
}
