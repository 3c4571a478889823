import { expect } from '@playwright/test'

export type Mail = { to: string[]; subject: string; text: string; html: string }

const MAILBOX_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}/mails`

/** The mails the e2e server's SMTP sink received for `to`, oldest first. */
export async function mailsTo(to: string): Promise<Mail[]> {
  const res = await fetch(`${MAILBOX_URL}?to=${encodeURIComponent(to)}`)
  if (!res.ok) throw new Error(`mailbox answered ${res.status}`)
  return (await res.json()) as Mail[]
}

/** Waits until `to` has at least `count` mails (matching `subject`, if given) and returns the newest. */
export async function waitForMail(to: string, opts: { subject?: RegExp; count?: number } = {}): Promise<Mail> {
  const matching = async () => (await mailsTo(to)).filter((m) => !opts.subject || opts.subject.test(m.subject))
  await expect.poll(async () => (await matching()).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(opts.count ?? 1)
  return (await matching()).at(-1)!
}

/** The first link in a mail's text whose path is `path`, e.g. `/confirm-email`. */
export function linkFrom(mail: Mail, path: string): string {
  const match = mail.text.match(new RegExp(`https?://\\S*${path.replace(/\//g, '\\/')}\\?\\S+`))
  if (!match) throw new Error(`no ${path} link in mail: ${mail.text}`)
  return match[0]
}
