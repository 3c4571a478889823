import type { Transporter } from 'nodemailer'
import type { Config } from '../lib/config'
import type { MailTransport } from './mailer'

/**
 * SMTP delivery through nodemailer (Node/Bun only; the Workers entry brings its own transport).
 * nodemailer is loaded with the first mail: most processes send none for a long while.
 */
export function createSmtpTransport(smtp: NonNullable<Config['smtp']>): MailTransport {
  let transporter: Promise<Transporter> | undefined
  const connect = async () => {
    const { default: nodemailer } = await import('nodemailer')
    return smtp.url
      ? nodemailer.createTransport(smtp.url)
      : nodemailer.createTransport({
          host: smtp.host,
          port: smtp.port ?? 587,
          secure: smtp.port === 465,
          auth: smtp.user ? { user: smtp.user, pass: smtp.password } : undefined,
        })
  }
  return {
    async send(mail) {
      await (await (transporter ??= connect())).sendMail(mail)
    },
  }
}
