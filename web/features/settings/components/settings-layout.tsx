import { Outlet } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { TabLink, TabNav } from '../../../components/ui/tab-nav'
import { SettingsFrame } from './settings-frame'

export function SettingsLayout() {
  const { t } = useTranslation('settings')
  return (
    <SettingsFrame
      title={t('title')}
      tabs={
        <TabNav label={t('title')}>
          <TabLink to="/settings/general">{t('tabs.general')}</TabLink>
          <TabLink to="/settings/account">{t('tabs.account')}</TabLink>
          <TabLink to="/settings/api-keys">{t('tabs.apiKeys')}</TabLink>
          <TabLink to="/settings/usage">{t('tabs.usage')}</TabLink>
        </TabNav>
      }
    >
      <Outlet />
    </SettingsFrame>
  )
}
