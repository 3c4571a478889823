import { z } from 'zod'
import { MAX_SEATS } from './limits'

export { MAX_SEATS } from './limits'

const required = (name: string, max = 200) => z.string().trim().min(1, `${name} is required`).max(max, `${name} must be at most ${max} characters`)
const optional = (max: number) => z.string().trim().max(max).optional().nullable().transform((v) => v || null)

export const seatsField = z.coerce
  .number('Number of seats is required')
  .int('Number of seats must be a whole number')
  .min(1, 'Number of seats must be at least 1')
  .max(MAX_SEATS, `Number of seats must be at most ${MAX_SEATS}`)

export const billingInfoBody = z.object({
  companyName: required('Company name'),
  subText: optional(200),
  street: required('Street'),
  houseNumber: required('House number', 20),
  postalCode: required('Postal code', 20),
  city: required('City'),
  country: required('Country', 100),
  vatNumber: optional(40),
})
export const createSubscriptionBody = billingInfoBody.extend({ noOfSeats: seatsField })
export const seatsBody = z.object({ noOfSeats: seatsField })

export const priceResponse = z.object({
  pricePerSeatMonthlyCents: z.number(),
  currency: z.string(),
  billingInterval: z.literal('yearly'),
  paymentMethod: z.literal('invoice'),
})

export const subscriptionResponse = z.object({
  status: z.enum(['active', 'cancelled']),
  startedAt: z.string(),
  cancelledAt: z.string().nullable(),
  /** Renewal date; for a cancelled subscription the day it ends. */
  nextRenewalAt: z.string(),
  seats: z.number(),
  usedSeats: z.number(),
  availableSeats: z.number(),
  pricePerSeatMonthlyCents: z.number(),
  yearlyTotalCents: z.number(),
  currency: z.string(),
  billingInfo: billingInfoBody,
})
export type SubscriptionView = z.infer<typeof subscriptionResponse>

export const webhookDeliveryResponse = z.object({
  id: z.string(),
  event: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string(),
})
