import type { Database } from '../../db/client'
import { outboxEmails } from '../../db/schema'
import type { Logger } from '../lib/logger'

import type { Mail, Mailer } from '../lib/ports'

export type { Mail, Mailer }

/** Delivers a message; the SMTP adapter lives in the Bun entry (nodemailer needs node:net). */
export type MailTransport = { send(mail: Mail & { from: string }): Promise<void> }

/**
 * Every mail is recorded in the outbox. With a transport it is delivered and marked sent (or
 * failed, and the error is raised); without one it is written to the log and the outbox only.
 */
export function createMailer(opts: { db: Database; logger: Logger; from: string; transport?: MailTransport }): Mailer {
  const { db, logger, from, transport } = opts
  return {
    delivers: Boolean(transport),
    async send(mail) {
      const id = crypto.randomUUID()
      if (!transport) {
        logger.info('mail (no SMTP configured)', { to: mail.to, subject: mail.subject, text: mail.text })
        await db.insert(outboxEmails).values({ id, ...mail, status: 'logged' })
        return
      }
      try {
        await transport.send({ ...mail, from })
        await db.insert(outboxEmails).values({ id, ...mail, status: 'sent' })
      } catch (error) {
        logger.error('mail delivery failed', { to: mail.to, subject: mail.subject, error })
        await db.insert(outboxEmails).values({ id, ...mail, status: 'failed', error: String(error) })
        throw error
      }
    },
  }
}
