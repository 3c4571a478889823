import { createRoute } from '@tanstack/react-router'
import { BookText } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ComingSoon } from '../components/coming-soon'
import { Route as appRoute } from './app'

export const Route = createRoute({
  getParentRoute: () => appRoute,
  path: '/prompts',
  component: PromptsPage,
})

function PromptsPage() {
  const { t } = useTranslation()
  return <ComingSoon icon={<BookText />} title={t('nav.prompts')} text={t('soon.prompts')} />
}
