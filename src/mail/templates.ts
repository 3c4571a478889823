import type { Mail } from './mailer'

export type Locale = 'en' | 'de'

type Template = { subject: string; intro: string; action: string; outro: string }

const TEMPLATES: Record<'confirmEmail' | 'resetPassword' | 'invite', Record<Locale, Template>> = {
  confirmEmail: {
    en: {
      subject: 'Confirm your e-mail address for Kontor',
      intro: 'Hello {{name}}, please confirm your e-mail address to start using Kontor.',
      action: 'Confirm e-mail address',
      outro: 'The link is valid for 24 hours. If you did not create an account, ignore this e-mail.',
    },
    de: {
      subject: 'Bestätigen Sie Ihre E-Mail-Adresse für Kontor',
      intro: 'Hallo {{name}}, bitte bestätigen Sie Ihre E-Mail-Adresse, um Kontor zu nutzen.',
      action: 'E-Mail-Adresse bestätigen',
      outro: 'Der Link ist 24 Stunden gültig. Wenn Sie kein Konto angelegt haben, ignorieren Sie diese E-Mail.',
    },
  },
  resetPassword: {
    en: {
      subject: 'Reset your Kontor password',
      intro: 'Hello {{name}}, someone asked to reset the password of your Kontor account.',
      action: 'Choose a new password',
      outro: 'The link is valid for one hour and can be used once. If it was not you, ignore this e-mail.',
    },
    de: {
      subject: 'Ihr Kontor-Passwort zurücksetzen',
      intro: 'Hallo {{name}}, jemand möchte das Passwort Ihres Kontor-Kontos zurücksetzen.',
      action: 'Neues Passwort wählen',
      outro: 'Der Link ist eine Stunde gültig und nur einmal nutzbar. Wenn Sie das nicht waren, ignorieren Sie diese E-Mail.',
    },
  },
  invite: {
    en: {
      subject: '{{inviter}} invited you to {{organization}} on Kontor',
      intro: 'Hello, {{inviter}} invited you to join {{organization}} on Kontor.',
      action: 'Accept the invitation',
      outro: 'The invitation is valid for 7 days. If you did not expect it, ignore this e-mail.',
    },
    de: {
      subject: '{{inviter}} hat Sie zu {{organization}} auf Kontor eingeladen',
      intro: 'Hallo, {{inviter}} hat Sie eingeladen, {{organization}} auf Kontor beizutreten.',
      action: 'Einladung annehmen',
      outro: 'Die Einladung ist 7 Tage gültig. Wenn Sie sie nicht erwartet haben, ignorieren Sie diese E-Mail.',
    },
  },
}

const fill = (text: string, vars: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, key) => vars[key] ?? '')

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!)

/** Renders a transactional mail with one call-to-action link, as plain text and HTML. */
export function renderMail(
  kind: keyof typeof TEMPLATES,
  locale: Locale,
  vars: { to: string; url: string; name?: string; inviter?: string; organization?: string },
): Mail {
  const t = TEMPLATES[kind][locale] ?? TEMPLATES[kind].de
  return renderTemplate(kind, t, locale, vars.to, vars.url, { name: '', ...vars })
}

function renderTemplate(kind: string, t: Template, locale: Locale, to: string, url: string, values: Record<string, string>): Mail {
  const intro = fill(t.intro, values)
  const text = `${intro}\n\n${t.action}: ${url}\n\n${t.outro}\n`
  const html = `<!doctype html><html lang="${locale}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(t.action)}</a></p>
<p style="color:#555;font-size:13px">${escapeHtml(t.outro)}</p>
</body></html>`
  return { kind, to, subject: fill(t.subject, values), text, html }
}

const BUDGET_ALERT: Record<Locale, Template> = {
  en: {
    subject: "{{threshold}}% of your organisation's monthly budget is used",
    intro: "Hello {{name}}, {{threshold}}% of your organisation's monthly model budget ({{limit}}) for {{month}} is used.",
    action: 'See the usage',
    outro: 'At 100% nobody in the organisation can send to a model until the next month begins (UTC). You can raise the budget on the usage page.',
  },
  de: {
    subject: '{{threshold}} % des Monatsbudgets Ihrer Organisation sind verbraucht',
    intro: 'Hallo {{name}}, {{threshold}} % des monatlichen Modellbudgets Ihrer Organisation ({{limit}}) für {{month}} sind verbraucht.',
    action: 'Nutzung ansehen',
    outro: 'Bei 100 % kann niemand in der Organisation mehr an ein Modell senden, bis der nächste Monat beginnt (UTC). Sie können das Budget auf der Nutzungsseite erhöhen.',
  },
}

/** The admins' e-mail at 80% and 100% of the organisation's monthly budget. */
export function renderBudgetAlert(locale: Locale, vars: { to: string; url: string; name: string; threshold: number; limit: string; month: string }): Mail {
  const t = BUDGET_ALERT[locale] ?? BUDGET_ALERT.de
  const values = { ...vars, threshold: String(vars.threshold) }
  return renderTemplate('budgetAlert', t, locale, vars.to, vars.url, values)
}
