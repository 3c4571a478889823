import { useSuspenseQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { SectionCard } from '../../../components/section-card'
import { toast } from '../../../components/toaster'
import { errorMessage } from '../../../lib/error-message'
import { useApi } from '../../../lib/use-api'
import { securityQueries, useSetTwoFactorRequirement } from '../api'

/** Admin → Security: whether members who sign in with a password must have a second factor. */
export function TwoFactorSection() {
  const { t } = useTranslation('security')
  const api = useApi()
  const navigate = useNavigate()
  const { required } = useSuspenseQuery(securityQueries.twoFactorRequirement(api)).data
  const update = useSetTwoFactorRequirement()
  const toggle = (on: boolean) =>
    update.mutate(on, {
      onSuccess: async () => {
        toast.success(on ? t('twoFactor.on') : t('twoFactor.off'))
        // The admin too: without a second factor of their own, they set one up first.
        const me = await api.get<{ twoFactorSetupRequired: boolean }>('/auth/me')
        if (me.twoFactorSetupRequired) await navigate({ to: '/two-factor/setup' })
      },
      onError: (error) => toast.error(errorMessage(t, error)),
    })
  return (
    <SectionCard id="two-factor-requirement" title={t('twoFactor.title')} description={t('twoFactor.text')}>
      <label className="flex items-center gap-3 text-sm font-medium">
        <input type="checkbox" className="size-4 accent-primary" checked={required} disabled={update.isPending} onChange={(e) => toggle(e.currentTarget.checked)} />
        {t('twoFactor.label')}
      </label>
    </SectionCard>
  )
}
