import { useTranslation } from 'react-i18next'
import type { SourcePassage } from '../lib/tool-data'

/** Where in its file a passage is: its page or pages, or for files without pages its part number. */
export function PageLabel({ passage }: { passage: Pick<SourcePassage, 'page' | 'pageEnd' | 'citation'> }) {
  const { t } = useTranslation('tools')
  const { page, pageEnd } = passage
  if (page !== null) return pageEnd !== null && pageEnd !== page ? t('pages', { from: page, to: pageEnd }) : t('page', { page })
  const part = /chunk (\d+)\)?$/.exec(passage.citation)?.[1]
  return part ? t('part', { part }) : null
}
