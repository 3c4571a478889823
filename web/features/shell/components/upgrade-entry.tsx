import { useQuery } from '@tanstack/react-query'
import { Popover } from 'radix-ui'
import { Sparkles } from 'lucide-react'
import { useTranslation } from 'react-i18next'
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
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <NavButton icon={icon} label={t('nav.upgrade')} collapsed={props.collapsed} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          side="right"
          align="end"
          sideOffset={8}
          className="z-50 w-64 rounded-lg border bg-popover p-3 text-sm text-popover-foreground shadow-md outline-none"
        >
          {t('nav.upgradeAskAdmin')}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  )
}
