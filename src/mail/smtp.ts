import nodemailer from 'nodemailer'
import type { Config } from '../lib/config'
import type { MailTransport } from './mailer'

/** SMTP delivery through nodemailer (Node/Bun only; the Workers entry brings its own transport). */
export function createSmtpTransport(smtp: NonNullable<Config['smtp']>): MailTransport {
  const transporter = smtp.url
    ? nodemailer.createTransport(smtp.url)
    : nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port ?? 587,
        secure: smtp.port === 465,
        auth: smtp.user ? { user: smtp.user, pass: smtp.password } : undefined,
      })
  return {
    async send(mail) {
      await transporter.sendMail(mail)
    },
  }
}
