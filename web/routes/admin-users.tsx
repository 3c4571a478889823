import { createRoute } from '@tanstack/react-router'
import { Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ComingSoon } from '../components/coming-soon'
import { Route as adminRoute } from './admin-settings'

export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/users',
  component: AdminUsersPage,
})

function AdminUsersPage() {
  const { t } = useTranslation()
  return <ComingSoon level={2} icon={<Users />} title={t('admin.tabs.users')} text={t('soon.adminUsers')} />
}
