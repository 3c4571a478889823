import { useQuery } from '@tanstack/react-query'
import { Outlet } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { TabLink, TabNav } from '../../../components/ui/tab-nav'
import { useApi } from '../../../lib/use-api'
import { systemQueries } from '../../../lib/system'
import { SettingsFrame } from './settings-frame'

/** Admin area: Settings (the organisation's), Users, Groups, Models, API, MCP servers, Usage, Security, Audit log, in the cloud Billing, and outside production Mails. */
export function AdminSettingsLayout() {
  const { t } = useTranslation()
  const api = useApi()
  const info = useQuery(systemQueries.info(api)).data
  const isCloud = info?.isCloud ?? false
  return (
    <SettingsFrame
      title={t('admin.title')}
      tabs={
        <TabNav label={t('admin.title')}>
          <TabLink to="/admin-settings/organization">{t('admin.tabs.settings')}</TabLink>
          <TabLink to="/admin-settings/users">{t('admin.tabs.users')}</TabLink>
          <TabLink to="/admin-settings/groups">{t('admin.tabs.groups')}</TabLink>
          <TabLink to="/admin-settings/models">{t('admin.tabs.models')}</TabLink>
          <TabLink to="/admin-settings/api">{t('admin.tabs.api')}</TabLink>
          <TabLink to="/admin-settings/mcp-servers">{t('admin.tabs.mcp')}</TabLink>
          <TabLink to="/admin-settings/usage">{t('admin.tabs.usage')}</TabLink>
          <TabLink to="/admin-settings/security">{t('admin.tabs.security')}</TabLink>
          <TabLink to="/admin-settings/audit-log">{t('admin.tabs.auditLog')}</TabLink>
          {isCloud && <TabLink to="/admin-settings/billing">{t('admin.tabs.billing')}</TabLink>}
          {info?.mailPage && <TabLink to="/admin-settings/mails">{t('admin.tabs.mails')}</TabLink>}
        </TabNav>
      }
    >
      <Outlet />
    </SettingsFrame>
  )
}
