import * as AlertDialog from '@radix-ui/react-alert-dialog'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { buttonVariants } from './ui/button'
import { cn } from '../lib/cn'
import { errorMessage } from '../lib/error-message'

export type ConfirmOptions = {
  title: string
  description?: string
  cancelLabel?: string
  confirmLabel?: string
  destructive?: boolean
  /** What failed, said before the reason when the action throws (e.g. "The chat could not be deleted."). */
  failure?: string
  /** Runs on confirm; the dialog closes when it resolves, and stays open saying why when it throws. */
  action: () => unknown | Promise<unknown>
}

/** The confirmation dialog of ConfirmDialogHost (./confirm-dialog.tsx), loaded on its own. */
export default function ConfirmDialog({ options, onClose: close }: { options: ConfirmOptions | null; onClose: () => void }) {
  const [running, setRunning] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const { t } = useTranslation()
  // A new question starts without the last one's error.
  useEffect(() => setFailure(null), [options])

  const run = async () => {
    if (!options) return
    setRunning(true)
    setFailure(null)
    try {
      await options.action()
      close()
    } catch (error) {
      console.error(error)
      setFailure([options.failure, errorMessage(t, error)].filter(Boolean).join(' '))
    } finally {
      setRunning(false)
    }
  }

  return (
    <AlertDialog.Root open={options !== null} onOpenChange={(open) => !open && !running && close()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-in data-[state=open]:fade-in-0" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-background p-6 shadow-lg">
          <AlertDialog.Title className="text-lg font-semibold">{options?.title}</AlertDialog.Title>
          <AlertDialog.Description className={cn('text-sm text-muted-foreground', !options?.description && 'sr-only')}>
            {options?.description ?? options?.title}
          </AlertDialog.Description>
          {failure && (
            <p role="alert" data-testid="confirm-error" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive dark:text-red-300">
              {failure}
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonVariants({ variant: 'outline' })} disabled={running}>
              {options?.cancelLabel ?? t('cancel')}
            </AlertDialog.Cancel>
            <button
              type="button"
              className={buttonVariants({ variant: options?.destructive ? 'destructive' : 'default' })}
              disabled={running}
              onClick={run}
            >
              {running ? t('loading') : (options?.confirmLabel ?? t('confirm'))}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}
