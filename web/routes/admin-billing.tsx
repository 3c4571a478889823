import { createRoute, notFound } from '@tanstack/react-router'
import { CreditCard } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ComingSoon } from '../components/coming-soon'
import { systemQueries } from '../features/system/api'
import { Route as adminRoute } from './admin-settings'

export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: '/billing',
  // A self-hosted instance has no subscription (reference.md "Modes").
  beforeLoad: async ({ context }) => {
    const info = await context.queryClient.ensureQueryData(systemQueries.info(context.api))
    if (!info.isCloud) throw notFound()
  },
  component: AdminBillingPage,
})

function AdminBillingPage() {
  const { t } = useTranslation()
  return <ComingSoon level={2} icon={<CreditCard />} title={t('admin.tabs.billing')} text={t('soon.adminBilling')} />
}
