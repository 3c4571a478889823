import { describe, expect, test } from 'bun:test'
import { regexes } from 'zod/v4/core'
import { emailField } from '../../lib/form-fields'
import { safeParse } from 'zod/mini'
import { EMAIL_PATTERN, loginErrors } from './login-values'

describe('the sign-in form checks its fields as the zod fields of the other forms do', () => {
  test("its e-mail pattern is zod's", () => {
    expect(EMAIL_PATTERN.source).toBe(regexes.email.source)
  })

  test('e-mail addresses: the same message as emailField for each', () => {
    const message = (email: string) => {
      const r = safeParse(emailField, email)
      return r.success ? undefined : r.error.issues[0]!.message
    }
    for (const email of ['', '   ', 'a', 'a@b', 'a@b.c', ' ada@acme.test ', 'ada@acme.test', 'a..b@acme.test', `${'a'.repeat(250)}@acme.test`]) {
      expect(loginErrors({ email, password: 'x' }).email).toBe(message(email))
    }
  })

  test('a password is required, any password', () => {
    expect(loginErrors({ email: 'ada@acme.test', password: '' })).toEqual({ password: 'passwordRequired' })
    expect(loginErrors({ email: 'ada@acme.test', password: ' ' })).toEqual({})
  })
})
