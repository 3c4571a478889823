import { useQuery } from '@tanstack/react-query'
import { Sparkles } from '../../../components/icons'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { onDemand, OnDemandTrigger } from '../../../lib/on-demand'
import { useApi } from '../../../lib/use-api'
import { NavButton, NavLink } from './nav-item'
import { subscriptionQueries } from '../../../lib/subscription'

/**
 * Whether the sidebar offers Upgrade: cloud organisations without an active subscription only
 * (a self-hosted instance has every feature unlocked). Unknown while loading: not shown.
 */
export function useShowUpgrade(isCloud: boolean) {
  const api = useApi()
  const active = useQuery({ ...subscriptionQueries.active(api), enabled: isCloud }).data
  return isCloud && active?.hasActiveSubscription === false
}

// What a member learns (Radix Popover) loads when the entry is first hovered, focused or pressed.
const upgradePopover = onDemand(() => import('./upgrade-popover'))

/** Admins go to Billing; members learn that an admin can upgrade. */
export function UpgradeEntry(props: { isAdmin: boolean; active?: boolean; collapsed?: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation()
  const icon = <Sparkles className="text-amber-500" />
  if (props.isAdmin) {
    return (
      <NavLink
        to="/admin-settings/billing"
        icon={icon}
        label={t('nav.upgrade')}
        active={props.active}
        collapsed={props.collapsed}
        onNavigate={props.onNavigate}
      />
    )
  }
  return <AskAdminToUpgrade icon={icon} collapsed={props.collapsed} />
}

function AskAdminToUpgrade(props: { icon: ReactNode; collapsed?: boolean }) {
  const { t } = useTranslation()
  const trigger = <NavButton icon={props.icon} label={t('nav.upgrade')} collapsed={props.collapsed} />
  return (
    <OnDemandTrigger
      part={upgradePopover}
      opens="click"
      trigger={trigger}
      render={(parts, triggerRef) => (
        <parts.UpgradePopover trigger={trigger} triggerRef={triggerRef} text={t('nav.upgradeAskAdmin')} />
      )}
    />
  )
}
