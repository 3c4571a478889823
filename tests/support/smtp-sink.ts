import PostalMime from 'postal-mime'
import { SMTPServer } from 'smtp-server'

export type ReceivedMail = { to: string[]; subject: string; text: string; html: string }

/** A real SMTP server on 127.0.0.1 that keeps what it receives, for the mail flows in tests. */
export async function startSmtpSink() {
  const mails: ReceivedMail[] = []
  const waiters: Array<() => void> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', async () => {
        const parsed = await PostalMime.parse(Buffer.concat(chunks))
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: parsed.html ?? '',
        })
        for (const w of waiters.splice(0)) w()
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port

  /** Resolves with the newest mail to `to` matching `match`, waiting up to 5 s for it. */
  async function waitForMail(to: string, match: (m: ReceivedMail) => boolean = () => true): Promise<ReceivedMail> {
    const deadline = Date.now() + 5000
    for (;;) {
      const found = mails.filter((m) => m.to.includes(to.toLowerCase()) && match(m)).at(-1)
      if (found) return found
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within 5 s (got ${mails.length} mails)`)
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 200)
      })
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    waitForMail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The first link in a mail whose path is `path`, e.g. `/confirm-email`. */
export function linkFrom(mail: ReceivedMail, path: string): URL {
  const match = mail.text.match(new RegExp(`https?://[^\\s]*${path.replace('/', '\\/')}\\?[^\\s]+`))
  if (!match) throw new Error(`no ${path} link in mail: ${mail.text}`)
  return new URL(match[0])
}
