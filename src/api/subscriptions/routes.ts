import { z } from 'zod'
import { defineRoute } from '../../lib/route'
import * as s from './schema'
import * as service from './service'
import { trialMessagesLeft } from './access'

const tag = 'Subscriptions'

export const subscriptionRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/subscriptions',
      tag,
      summary: "The organisation's subscription",
      access: 'admin',
      response: s.subscriptionResponse,
      errors: ['SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTIONS_NOT_USED'],
    },
    ({ deps, user }) => service.getSubscription(deps, user),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/subscriptions',
      tag,
      summary: 'Subscribe with billing details and a number of seats (billed yearly by invoice)',
      access: 'admin',
      body: s.createSubscriptionBody,
      response: s.subscriptionResponse,
      status: 201,
      errors: ['SUBSCRIPTION_EXISTS', 'TOO_MANY_USED_SEATS', 'SUBSCRIPTIONS_NOT_USED'],
    },
    async ({ c, deps, user, body }) => c.json(await service.createSubscription(deps, user, body), 201),
  ),
  defineRoute(
    {
      method: 'delete',
      path: '/subscriptions',
      tag,
      summary: 'Cancel; usable until the next renewal date',
      access: 'admin',
      response: s.subscriptionResponse,
      errors: ['SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTION_ALREADY_CANCELLED'],
    },
    ({ deps, user }) => service.cancelSubscription(deps, user),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/subscriptions/uncancel',
      tag,
      summary: 'Take a cancellation back before the subscription ends',
      access: 'admin',
      response: s.subscriptionResponse,
      errors: ['SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTION_NOT_CANCELLED', 'SUBSCRIPTION_LAPSED'],
    },
    ({ deps, user }) => service.uncancelSubscription(deps, user),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/subscriptions/active',
      tag,
      summary: 'Whether the organisation may use paid features (always true when self-hosted), and the trial messages it has left without',
      access: 'user',
      response: z.object({
        hasActiveSubscription: z.boolean(),
        /** Null with a subscription (or self-hosted); else the chat messages the trial still allows. */
        trialMessagesLeft: z.number().int().nullable(),
      }),
    },
    async ({ deps, user }) => {
      const trialLeft = await trialMessagesLeft(deps, user.organizationId)
      return { hasActiveSubscription: trialLeft === null, trialMessagesLeft: trialLeft }
    },
  ),
  defineRoute(
    { method: 'get', path: '/subscriptions/price', tag, summary: 'Price per seat and month, billed yearly by invoice', access: 'user', response: s.priceResponse },
    async ({ deps }) => service.price(deps),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/subscriptions/seats',
      tag,
      summary: 'Change the number of seats (never below the seats in use)',
      access: 'admin',
      body: s.seatsBody,
      response: s.subscriptionResponse,
      errors: ['SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTION_NOT_ACTIVE', 'TOO_MANY_USED_SEATS'],
    },
    ({ deps, user, body }) => service.updateSeats(deps, user, body.noOfSeats),
  ),
  defineRoute(
    {
      method: 'put',
      path: '/subscriptions/billing-info',
      tag,
      summary: 'Change the billing details',
      access: 'admin',
      body: s.billingInfoBody,
      response: s.subscriptionResponse,
      errors: ['SUBSCRIPTION_NOT_FOUND', 'SUBSCRIPTION_NOT_ACTIVE'],
    },
    ({ deps, user, body }) => service.updateBillingInfo(deps, user, body),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/subscriptions/webhook-deliveries',
      tag,
      summary: 'The billing webhooks sent for the organisation and whether they arrived',
      access: 'admin',
      response: z.array(s.webhookDeliveryResponse),
    },
    ({ deps, user }) => service.webhookLog(deps, user),
  ),
]
