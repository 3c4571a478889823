import { sql } from 'drizzle-orm'
import journal from '../../../drizzle/meta/_journal.json'
import { z } from 'zod'
import { DATABASE_UNREACHABLE } from '../../lib/database-errors'
import { AppError } from '../../lib/errors'
import { defineRoute } from '../../lib/route'
import { registrationClosed } from '../auth/access'
import { mailPageEnabled } from '../outbox/access'

const tag = 'System'

export const systemRoutes = [
  defineRoute(
    {
      method: 'get',
      path: '/',
      tag,
      summary: 'Instance facts the web app needs before sign-in',
      access: 'public',
      response: z.object({
        isCloud: z.boolean(),
        /** No new organisation can register now (KONTOR_REGISTRATION): people join by invitation or single sign-on. */
        registrationDisabled: z.boolean(),
        emailDelivery: z.boolean(),
        /** Development and demo: admins get a page with the mails Kontor sent. */
        mailPage: z.boolean(),
      }),
    },
    async ({ deps }) => ({
      isCloud: deps.config.isCloud,
      registrationDisabled: await registrationClosed(deps),
      emailDelivery: deps.mailer.delivers,
      mailPage: mailPageEnabled(deps.config),
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
      summary: 'Readiness: the database answers and every migration is applied',
      access: 'public',
      response: z.object({ ok: z.boolean() }),
      errors: ['SERVICE_UNAVAILABLE'],
    },
    async ({ deps }) => {
      let applied = 0
      try {
        const [row] = await deps.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM __drizzle_migrations`)
        applied = Number(row?.n ?? 0)
      } catch {
        throw new AppError('SERVICE_UNAVAILABLE', { message: DATABASE_UNREACHABLE })
      }
      if (applied < journal.entries.length) throw new AppError('SERVICE_UNAVAILABLE', { message: 'Database migrations are not applied yet.' })
      return { ok: true }
    },
  ),
]
