import { z } from 'zod/mini'
import { strongPassword } from '../../lib/form-fields'
import { MAX_RETENTION_DAYS, MIN_RETENTION_DAYS } from '../../../src/api/retention/limits'

// Messages are i18n keys of the `validation` namespace.
export const nameSchema = z.object({ name: z.string().check(z.trim(), z.minLength(1, 'nameRequired'), z.maxLength(100, 'tooLong')) })
export type NameValues = z.infer<typeof nameSchema>

export const passwordSchema = z
  .object({
    currentPassword: z.string().check(z.minLength(1, 'passwordRequired')),
    newPassword: strongPassword,
    confirmPassword: z.string(),
  })
  .check(z.refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'passwordsMismatch' }))
export type PasswordValues = z.infer<typeof passwordSchema>

export const organizationNameSchema = z.object({ name: z.string().check(z.trim(), z.minLength(1, 'organizationRequired'), z.maxLength(100, 'tooLong')) })
export type OrganizationNameValues = z.infer<typeof organizationNameSchema>

const isDays = (v: string) => /^\d+$/.test(v.trim()) && Number(v) >= MIN_RETENTION_DAYS && Number(v) <= MAX_RETENTION_DAYS
/** One retention period as the form holds it: kept for ever, or a number of days typed in. */
export const retentionSchema = z
  .object({ chatMode: z.enum(['forever', 'days']), chatDays: z.string(), fileMode: z.enum(['forever', 'days']), fileDays: z.string() })
  .check(
    z.refine((v) => v.chatMode === 'forever' || isDays(v.chatDays), { path: ['chatDays'], message: 'retentionDays' }),
    z.refine((v) => v.fileMode === 'forever' || isDays(v.fileDays), { path: ['fileDays'], message: 'retentionDays' }),
  )
export type RetentionValues = z.infer<typeof retentionSchema>
