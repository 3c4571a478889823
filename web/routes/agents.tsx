import { createRoute } from '@tanstack/react-router'
import { Bot } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ComingSoon } from '../components/coming-soon'
import { Route as appRoute } from './app'

export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/agents',
  component: AgentsPage,
})

function AgentsPage() {
  const { t } = useTranslation()
  return <ComingSoon icon={<Bot />} title={t('nav.agents')} text={t('soon.agents')} />
}
