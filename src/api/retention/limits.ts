/** Bounds of an organisation's retention periods, in days (without zod: the settings page needs them too). */
export const MIN_RETENTION_DAYS = 1
export const MAX_RETENTION_DAYS = 3650
