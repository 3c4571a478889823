import type { FieldError, UseFormRegisterReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormField, fieldA11y } from '../../../components/ui/form-field'
import { Input } from '../../../components/ui/input'
import { cn } from '../../../lib/cn'
import type { BillingInfoField } from '../schemas'

type FieldSpec = { name: BillingInfoField; autoComplete: string; span: string; optional?: boolean; hint?: boolean }

// Address order as on a German invoice: company, addition, street and number, postal code and city.
const FIELDS: FieldSpec[] = [
  { name: 'companyName', autoComplete: 'organization', span: 'sm:col-span-6' },
  { name: 'subText', autoComplete: 'off', span: 'sm:col-span-6', optional: true, hint: true },
  { name: 'street', autoComplete: 'address-line1', span: 'sm:col-span-4' },
  { name: 'houseNumber', autoComplete: 'off', span: 'sm:col-span-2' },
  { name: 'postalCode', autoComplete: 'postal-code', span: 'sm:col-span-2' },
  { name: 'city', autoComplete: 'address-level2', span: 'sm:col-span-4' },
  { name: 'country', autoComplete: 'country-name', span: 'sm:col-span-3' },
  { name: 'vatNumber', autoComplete: 'off', span: 'sm:col-span-3', optional: true, hint: true },
]

/**
 * The billing address fields, shared by the subscribe form and the edit dialog. `idPrefix` keeps
 * ids unique when both could be on screen.
 */
export function BillingInfoFields(props: {
  idPrefix: string
  register: (name: BillingInfoField) => UseFormRegisterReturn
  errors: Partial<Record<BillingInfoField, FieldError>>
}) {
  const { t } = useTranslation('billing')
  return (
    <div className="grid gap-4 sm:grid-cols-6">
      {FIELDS.map((field) => {
        const id = `${props.idPrefix}-${field.name}`
        const error = props.errors[field.name]?.message
        const label = field.optional ? (
          <>
            {t(`fields.${field.name}`)} <span className="font-normal text-muted-foreground">{t('fields.optional')}</span>
          </>
        ) : (
          t(`fields.${field.name}`)
        )
        return (
          <div key={field.name} className={cn('min-w-0', field.span)}>
            <FormField id={id} label={label} error={error} hint={field.hint ? t(`fields.${field.name}Hint`) : undefined}>
              <Input autoComplete={field.autoComplete} {...fieldA11y(id, error)} {...props.register(field.name)} />
            </FormField>
          </div>
        )
      })}
    </div>
  )
}
