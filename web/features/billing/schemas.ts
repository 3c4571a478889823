import { z } from 'zod/mini'
import { MAX_SEATS } from '../../../src/api/subscriptions/limits'

// Messages are i18n keys (the FormField looks them up); limits mirror src/api/subscriptions/schema.ts,
// so a form the client accepts is one the server accepts.
const required = (key: string, max: number) =>
  z.string().check(z.trim(), z.minLength(1, `billing:validation.${key}`), z.maxLength(max, 'tooLong'))
const optional = (max: number) => z.string().check(z.trim(), z.maxLength(max, 'tooLong'))

export const billingInfoSchema = z.object({
  companyName: required('companyRequired', 200),
  subText: optional(200),
  street: required('streetRequired', 200),
  houseNumber: required('houseNumberRequired', 20),
  postalCode: required('postalCodeRequired', 20),
  city: required('cityRequired', 200),
  country: required('countryRequired', 100),
  vatNumber: optional(40),
})
export type BillingInfoValues = z.infer<typeof billingInfoSchema>
export type BillingInfoField = keyof BillingInfoValues

/** The number of seats as typed (a string), checked and turned into a whole number. */
export const seatsField = z.pipe(
  z.pipe(
    z.string().check(
      z.trim(),
      z.minLength(1, { message: 'billing:validation.seatsRequired', abort: true }),
      z.regex(/^\d+$/, 'billing:validation.seatsWhole'),
    ),
    z.transform(Number),
  ),
  z.number().check(z.minimum(1, 'billing:validation.seatsMin'), z.maximum(MAX_SEATS, 'billing:validation.seatsMax')),
)

export const subscribeSchema = z.extend(billingInfoSchema, { noOfSeats: seatsField })
export type SubscribeFormInput = z.input<typeof subscribeSchema>
export type SubscribeValues = z.output<typeof subscribeSchema>

export const seatsSchema = z.object({ noOfSeats: seatsField })
export type SeatsFormInput = z.input<typeof seatsSchema>
export type SeatsValues = z.output<typeof seatsSchema>

export const EMPTY_BILLING_INFO: BillingInfoValues = {
  companyName: '',
  subText: '',
  street: '',
  houseNumber: '',
  postalCode: '',
  city: '',
  country: '',
  vatNumber: '',
}

/** A seat count typed so far, or null while it is not a valid number of seats. */
export function typedSeats(value: string | undefined): number | null {
  const result = seatsField.safeParse(value ?? '')
  return result.success ? result.data : null
}
