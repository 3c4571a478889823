/** zod's z.email() pattern (zod/v4/core regexes.email; login-values.test.ts keeps them equal). */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/

export type LoginValues = { email: string; password: string }
export type LoginErrors = Partial<Record<keyof LoginValues, string>>

/**
 * The sign-in form's checks, the same as emailField (web/lib/form-fields.ts) and a required
 * password, without zod or a form library: the sign-in page is the first page most visitors load.
 * Messages are i18n keys of the `validation` namespace.
 */
export function loginErrors(values: LoginValues): LoginErrors {
  const errors: LoginErrors = {}
  const email = values.email.trim()
  if (!email) errors.email = 'emailRequired'
  else if (!EMAIL_PATTERN.test(email)) errors.email = 'emailInvalid'
  else if (email.length > 254) errors.email = 'tooLong'
  if (!values.password) errors.password = 'passwordRequired'
  return errors
}
