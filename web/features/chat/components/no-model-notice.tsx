import { Link } from '@tanstack/react-router'
import { TriangleAlert } from '../../../components/icons'
import { useTranslation } from 'react-i18next'

type NoModelNoticeProps = {
  /** choose: models exist, pick one in the header; agent: the agent's model went away; none: nothing is enabled. */
  reason: 'choose' | 'agent' | 'none'
  isAdmin: boolean
}

/** Why nothing can be sent: no model is usable. Each reason comes with its way out. */
export function NoModelNotice({ reason, isAdmin }: NoModelNoticeProps) {
  const { t } = useTranslation('chat')
  const link = 'font-medium text-foreground underline underline-offset-4'
  return (
    <div role="status" className="mx-auto mb-2 flex w-full max-w-3xl items-start gap-2 px-4 text-sm text-muted-foreground sm:px-5">
      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
      <p>
        <span className="font-medium text-foreground">{t('errors:NO_MODEL_FOUND')}.</span>{' '}
        {reason === 'choose' && t('model.chooseToContinue')}
        {reason === 'agent' && (
          <>
            {t('model.agentUnavailable')}{' '}
            <Link to="/agents" className={link}>
              {t('common:nav.agents')}
            </Link>
          </>
        )}
        {reason === 'none' && (isAdmin ? t('model.noModelsAdmin') : t('model.noModelsUser'))}
        {reason === 'none' && isAdmin && (
          <>
            {' '}
            <Link to="/admin-settings/models" className={link}>
              {t('model.openAdmin')}
            </Link>
          </>
        )}
      </p>
    </div>
  )
}
