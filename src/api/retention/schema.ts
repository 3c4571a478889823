import { z } from 'zod'
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from './limits'

const days = z
  .number({ error: 'Must be a number of days' })
  .int('Must be a whole number of days')
  .min(MIN_RETENTION_DAYS, `At least ${MIN_RETENTION_DAYS} day`)
  .max(MAX_RETENTION_DAYS, `At most ${MAX_RETENTION_DAYS} days`)
  .nullable()

/** How long the organisation keeps chats (days since the last message) and uploaded files (days since upload); null: for ever. */
export const retentionResponse = z.object({ chatDays: days, fileDays: days })
export const updateRetentionBody = retentionResponse

export type RetentionView = z.infer<typeof retentionResponse>
