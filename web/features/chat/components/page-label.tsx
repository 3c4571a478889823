import { useTranslation } from 'react-i18next'
import type { SourcePassage } from '../lib/tool-data'

/**
 * Where in its file a passage is: its page or pages, or for files without pages its chunk number, as the citation names it;
 * text read by OCR from a scan or picture says so ("p. 2 · recognised text").
 */
export function PageLabel({ passage }: { passage: Pick<SourcePassage, 'page' | 'pageEnd' | 'citation' | 'recognised'> }) {
  const { t } = useTranslation('tools')
  const { page, pageEnd } = passage
  const part = /chunk (\d+)\)?$/.exec(passage.citation)?.[1]
  const where = page !== null ? (pageEnd !== null && pageEnd !== page ? t('pages', { from: page, to: pageEnd }) : t('page', { page })) : part ? t('part', { part }) : null
  if (!passage.recognised) return where
  return (
    <>
      {where && `${where} · `}
      <span data-testid="recognised-text">{t('recognised')}</span>
    </>
  )
}
