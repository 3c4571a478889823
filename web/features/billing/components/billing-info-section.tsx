import { Pencil } from '../../../components/icons'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import type { Subscription } from '../api'
import { BillingInfoDialog } from './billing-info-dialog'
import { Fact } from './billing-section'
import { SectionCard } from '../../../components/section-card'

/** The address the invoices go to, as it will be printed, and the dialog to change it. */
export function BillingInfoSection(props: { subscription: Subscription }) {
  const { t } = useTranslation('billing')
  const [editing, setEditing] = useState(false)
  const info = props.subscription.billingInfo
  const active = props.subscription.status === 'active'

  return (
    <SectionCard
      id="billing-info"
      title={t('info.title')}
      description={active ? t('info.description') : t('info.reactivateFirst')}
      action={
        <Button variant="outline" size="sm" onClick={() => setEditing(true)} disabled={!active}>
          <Pencil />
          {t('info.edit')}
        </Button>
      }
    >
      <dl className="grid gap-x-6 gap-y-4 sm:grid-cols-2">
        <Fact label={t('info.address')}>
          <address data-testid="billing-address" className="not-italic leading-relaxed">
            <span className="block break-words">{info.companyName}</span>
            {info.subText && <span className="block break-words font-normal">{info.subText}</span>}
            <span className="block break-words font-normal">
              {info.street} {info.houseNumber}
            </span>
            <span className="block break-words font-normal">
              {info.postalCode} {info.city}
            </span>
            <span className="block break-words font-normal">{info.country}</span>
          </address>
        </Fact>
        <Fact label={t('fields.vatNumber')}>
          {info.vatNumber ? <span className="break-words">{info.vatNumber}</span> : <span className="font-normal text-muted-foreground">{t('info.noVat')}</span>}
        </Fact>
      </dl>
      <BillingInfoDialog open={editing} onOpenChange={setEditing} info={info} />
    </SectionCard>
  )
}
