import { z } from 'zod/mini'

// Messages are i18n keys of the `validation` namespace. Limits mirror src/api/auth/schema.ts,
// so a form the client accepts is one the server accepts. Shared by the sign-up, invite and password forms.
export const emailField = z.string().check(z.trim(), z.minLength(1, 'emailRequired'), z.email('emailInvalid'), z.maxLength(254, 'tooLong'))

const hasPasswordMix = (v: string) => /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v)

export const strongPassword = z.string().check(z.minLength(8, 'passwordMin'), z.maxLength(128, 'tooLong'), z.refine(hasPasswordMix, 'passwordRule'))

/**
 * The server's field messages (VALIDATION_FAILED `fields`) are English; the form shows the
 * matching validation key instead, or a generic one for a message it does not know.
 */
const SERVER_FIELD_MESSAGES: Record<string, string> = {
  'Please enter a valid email address': 'emailInvalid',
  'Name is required': 'nameRequired',
  'Name must be at most 100 characters': 'tooLong',
  'Organisation name is required': 'organizationRequired',
  'Password must be at most 128 characters': 'tooLong',
  'Invalid password. Must be at least 8 characters, uppercase, lowercase and numbers.': 'passwordRule',
  'Passwords do not match': 'passwordsMismatch',
  'You must accept the terms and privacy policy': 'termsRequired',
}

export const serverFieldKey = (message: string) => SERVER_FIELD_MESSAGES[message] ?? 'invalid'
