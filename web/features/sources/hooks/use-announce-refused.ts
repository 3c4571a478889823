import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import type { RefusedFile } from '../lib/check-files'

/** Tells the user which files were not attached and why: one message per reason, naming the files. */
export function useAnnounceRefused() {
  const { t } = useTranslation('sources')
  return (refused: RefusedFile[]) => {
    const byCode = new Map<RefusedFile['code'], string[]>()
    for (const { code, name } of refused) byCode.set(code, [...(byCode.get(code) ?? []), name])
    for (const [code, names] of byCode) {
      toast.error(t('notAttached', { names: names.join(', '), count: names.length }), { description: t(code, { ns: 'errors' }) })
    }
  }
}
