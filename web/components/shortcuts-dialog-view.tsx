import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import { Dialog, DialogContent, DialogHeader } from './ui/dialog'
import { keysOf, SHORTCUTS } from '../lib/shortcuts'

/** The list of keyboard shortcuts (Radix Dialog), loaded by ShortcutsDialog when it first opens. */
export function ShortcutsDialogView({ open, setOpen }: { open: boolean; setOpen: (open: boolean) => void }) {
  const { t } = useTranslation()
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogContent closeLabel={t('close')} data-testid="shortcuts-dialog">
        <DialogHeader title={t('shortcuts.title')} description={t('shortcuts.description')} />
        <dl className="grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-2.5 text-sm">
          {SHORTCUTS.map((s) => (
            <Fragment key={s.id}>
              <dt>{t(`shortcuts.${s.id}`)}</dt>
              <dd className="flex justify-end gap-1">
                {keysOf(s).map((key) => (
                  <kbd key={key} className="min-w-6 rounded border border-b-2 bg-muted px-1.5 py-0.5 text-center font-mono text-xs text-foreground">
                    {key}
                  </kbd>
                ))}
              </dd>
            </Fragment>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  )
}
