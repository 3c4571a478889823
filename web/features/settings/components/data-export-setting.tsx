import { Download } from '../../../components/icons'
import { useTranslation } from 'react-i18next'
import { SectionCard } from '../../../components/section-card'
import { buttonVariants } from '../../../components/ui/button'

/** Downloads everything of the user's as one ZIP (GET /api/export, streamed by the server). */
export function DataExportSetting() {
  const { t } = useTranslation('settings')
  return (
    <SectionCard id="export" title={t('export.title')} description={t('export.hint')}>
      <a href="/api/export" download className={buttonVariants({ variant: 'outline' })} data-testid="export-all">
        <Download aria-hidden />
        {t('export.action')}
      </a>
    </SectionCard>
  )
}
