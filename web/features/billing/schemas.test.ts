import { describe, expect, test } from 'bun:test'
import { createSubscriptionBody } from '../../../src/api/subscriptions/schema'
import en from '../../locales/en/billing.json'
import { EMPTY_BILLING_INFO, subscribeSchema, typedSeats } from './schemas'

const valid = {
  ...EMPTY_BILLING_INFO,
  companyName: 'Acme Corp GmbH',
  street: 'Hauptstraße',
  houseNumber: '12a',
  postalCode: '10115',
  city: 'Berlin',
  country: 'Germany',
  noOfSeats: '3',
}

/** The English text of each failing field's message key. */
function messages(input: unknown) {
  const result = subscribeSchema.safeParse(input)
  if (result.success) return {}
  const text = (key: string) => key.replace('billing:validation.', '').split('.').reduce((o: any, k) => o?.[k], en.validation) ?? key
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), text(i.message)]))
}

describe('subscribe form', () => {
  test('an empty form names each required field with its own message (spec section 5)', () => {
    expect(messages({ ...EMPTY_BILLING_INFO, noOfSeats: '' })).toEqual({
      companyName: 'Company name is required',
      street: 'Street is required',
      houseNumber: 'House number is required',
      postalCode: 'Postal code is required',
      city: 'City is required',
      country: 'Country is required',
      noOfSeats: 'Number of seats is required',
    })
  })

  test('seats are a whole number from 1 to 10,000', () => {
    expect(messages({ ...valid, noOfSeats: '2.5' })).toEqual({ noOfSeats: 'Number of seats must be a whole number' })
    expect(messages({ ...valid, noOfSeats: '0' })).toEqual({ noOfSeats: 'Number of seats must be at least 1' })
    expect(messages({ ...valid, noOfSeats: '10001' })).toEqual({ noOfSeats: 'Number of seats must be at most 10,000' })
    expect(typedSeats(' 12 ')).toBe(12)
    expect(typedSeats('')).toBeNull()
  })

  test('what the form accepts, the server accepts', () => {
    const values = subscribeSchema.parse(valid)
    expect(values.noOfSeats).toBe(3)
    expect(createSubscriptionBody.safeParse(values).success).toBe(true)
  })
})
