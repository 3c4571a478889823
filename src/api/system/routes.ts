import { sql } from 'drizzle-orm'
import { z } from 'zod'
import { AppError } from '../../lib/errors'
import { defineRoute } from '../../lib/route'

const tag = 'System'

export const systemRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/',
      tag,
      summary: 'Instance facts the web app needs before sign-in',
      access: 'public',
      response: z.object({ isCloud: z.boolean(), registrationDisabled: z.boolean(), emailDelivery: z.boolean() }),
    },
    async ({ deps }) => ({
      isCloud: deps.config.isCloud,
      registrationDisabled: deps.config.registrationDisabled,
      emailDelivery: deps.mailer.delivers,
    }),
  ),
  defineRoute(
    { method: 'get', path: '/health', tag, summary: 'Liveness', access: 'public', response: z.object({ ok: z.boolean() }) },
    async () => ({ ok: true }),
  ),
  defineRoute(
    {
      method: 'get',
      path: '/ready',
      tag,
      summary: 'Readiness: the database answers',
      access: 'public',
      response: z.object({ ok: z.boolean() }),
      errors: ['SERVICE_UNAVAILABLE'],
    },
    async ({ deps }) => {
      try {
        await deps.db.run(sql`select 1`)
      } catch {
        throw new AppError('SERVICE_UNAVAILABLE')
      }
      return { ok: true }
    },
  ),
]
