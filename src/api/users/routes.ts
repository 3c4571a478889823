import { withClientAddress } from '../../auth/client-address'
import { auditFrom } from '../audit/access'
import { meResponse } from '../auth/schema'
import { jsonWithCookies } from '../../lib/respond'
import { defineRoute } from '../../lib/route'
import * as s from './schema'
import * as service from './service'

const tag = 'Users'

export const userAccountRoutes = [
  defineRoute(
    {
      method: 'post',
      path: '/users/confirm-email',
      tag,
      summary: 'Confirm an e-mail address with the token from the mail',
      access: 'public',
      body: s.confirmEmailBody,
      response: s.okResponse,
      errors: ['INVALID_CONFIRMATION_LINK'],
    },
    ({ deps, body }) => service.confirmEmail(deps, body.token),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/users/resend-confirmation',
      tag,
      summary: 'Send the confirmation mail again',
      access: 'public',
      body: s.resendConfirmationBody,
      response: s.okResponse,
      errors: ['TOO_MANY_CONFIRMATION_EMAILS', 'EMAIL_CONFIRMATION_FAILED'],
    },
    ({ deps, body }) => service.resendConfirmation(deps, body.email),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/users/forgot-password',
      tag,
      summary: 'Mail a password reset link (same answer for unknown addresses)',
      access: 'public',
      body: s.forgotPasswordBody,
      response: s.okResponse,
    },
    ({ deps, body }) => service.forgotPassword(deps, body.email),
  ),
  defineRoute(
    {
      method: 'post',
      path: '/users/reset-password',
      tag,
      summary: 'Set a new password with the token from the reset mail',
      access: 'public',
      body: s.resetPasswordBody,
      response: s.okResponse,
      errors: ['INVALID_TOKEN', 'PASSWORD_RESET_FAILED'],
    },
    ({ deps, body }) => service.resetPassword(deps, body),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/users/name',
      tag,
      summary: 'Change the own name',
      access: 'user',
      body: s.changeNameBody,
      response: meResponse,
      errors: ['INVALID_NAME'],
    },
    ({ deps, user, body }) => service.changeName(deps, user, body.name),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/users/locale',
      tag,
      summary: "Change the own language (used for e-mails); the member's other browsers take it on their next page load",
      access: 'user',
      body: s.changeLocaleBody,
      response: meResponse,
    },
    ({ deps, user, body }) => service.changeLocale(deps, user, body.locale),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/users/theme',
      tag,
      summary: "Change the own theme; the member's other browsers take it on their next page load",
      access: 'user',
      body: s.changeThemeBody,
      response: meResponse,
    },
    ({ deps, user, body }) => service.changeTheme(deps, user, body.theme),
  ),
  defineRoute(
    {
      method: 'patch',
      path: '/users/password',
      tag,
      summary: 'Change the own password; other sessions are signed out',
      access: 'user',
      body: s.changePasswordBody,
      response: s.okResponse,
      errors: ['CURRENT_PASSWORD_INCORRECT'],
    },
    async ({ c, deps, body }) => jsonWithCookies(c, { ok: true }, await service.changePassword(deps, withClientAddress(c.req.raw.headers, auditFrom(c).address), body)),
  ),
]
