import { createRoute } from '@tanstack/react-router'
import { Cpu } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ComingSoon } from '../components/coming-soon'
import { Route as adminRoute } from './admin-settings'

export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/models',
  component: AdminModelsPage,
})

function AdminModelsPage() {
  const { t } = useTranslation()
  return <ComingSoon level={2} icon={<Cpu />} title={t('admin.tabs.models')} text={t('soon.adminModels')} />
}
