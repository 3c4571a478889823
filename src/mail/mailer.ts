import type { Database } from '../../db/client'
import { outboxEmails } from '../../db/schema'
import type { Logger } from '../lib/logger'

import type { Mail, Mailer } from '../lib/ports'

export type { Mail, Mailer }

/** Delivers a message; the SMTP adapter lives in the Bun entry (nodemailer needs node:net). */
export type MailTransport = { send(mail: Omit<Mail, 'kind'> & { from: string }): Promise<void> }

/**
 * Every mail is recorded in the outbox. With a transport it is delivered and marked sent (or
 * failed, and the error is raised); without one it stays in the outbox only. The log names the
 * mail's kind and recipient, never its subject or body: the body's link carries a token (a
 * password reset, an invitation) that log shippers and whoever reads the logs must not get.
 */
export function createMailer(opts: { db: Database; logger: Logger; from: string; transport?: MailTransport }): Mailer {
  const { db, logger, from, transport } = opts
  return {
    delivers: Boolean(transport),
    async send({ kind, ...content }) {
      const id = crypto.randomUUID()
      if (!transport) {
        await db.insert(outboxEmails).values({ id, ...content, status: 'logged' })
        logger.info('mail (no SMTP configured), kept in the outbox', { kind, to: content.to, outboxId: id })
        return
      }
      try {
        await transport.send({ ...content, from })
        await db.insert(outboxEmails).values({ id, ...content, status: 'sent' })
      } catch (error) {
        logger.error('mail delivery failed', { kind, to: content.to, error })
        await db.insert(outboxEmails).values({ id, ...content, status: 'failed', error: String(error) })
        throw error
      }
    },
  }
}
