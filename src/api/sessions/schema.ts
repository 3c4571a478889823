import { z } from 'zod'

export const sessionIdParams = z.object({ id: z.string().min(1).max(64) })
export const memberSessionsParams = z.object({ id: z.string().min(1).max(64) })

export const sessionResponse = z.object({
  id: z.string(),
  /** The session of the request that asks. */
  current: z.boolean(),
  /** Browser and operating system as the user agent names them; null when it names none. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  device: z.enum(['desktop', 'mobile', 'tablet', 'other']),
  /** The address the session was signed in from; null when none was known. */
  address: z.string().nullable(),
  signedInAt: z.string(),
  lastSeenAt: z.string(),
})
export type SessionView = z.infer<typeof sessionResponse>

export const endedSessionsResponse = z.object({ ended: z.number().int() })
