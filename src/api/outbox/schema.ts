import { z } from 'zod'

export const outboxMailResponse = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /** `logged`: kept here only (no SMTP); `sent` or `failed`: handed to SMTP. */
  status: z.enum(['logged', 'sent', 'failed']),
  createdAt: z.string(),
})
export const outboxListResponse = z.array(outboxMailResponse)
export type OutboxMail = z.infer<typeof outboxMailResponse>
