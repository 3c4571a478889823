import type en from './en'
import type enPublic from './en/public'
import type enManage from './en/manage'

/** One language's strings, by namespace. German has the same keys (locales.test.ts). */
export type Strings = typeof en

export const namespaces = ['common', 'errors', 'auth', 'settings', 'validation', 'invitation', 'members', 'groups', 'models', 'chat', 'prompts', 'agents', 'billing', 'tools', 'sources', 'mails', 'apiKeys', 'audit', 'knowledge', 'mcp', 'security', 'usage'] as const satisfies ReadonlyArray<keyof Strings>

/**
 * The namespaces every page needs (./en/public.ts); the error messages (`errors`, ./en/errors.json);
 * those of the settings and administration screens (./en/manage.ts); the rest are the other
 * signed-in screens' (./en/app.ts).
 */
export const publicNamespaces = ['common', 'auth', 'validation', 'invitation'] as const satisfies ReadonlyArray<keyof typeof enPublic>
export const manageNamespaces = ['settings', 'models', 'groups', 'billing', 'mails', 'apiKeys', 'audit', 'security', 'usage', 'mcp', 'members'] as const satisfies ReadonlyArray<keyof typeof enManage>

export type StringsPart = 'public' | 'errors' | 'app' | 'manage'

/**
 * Each language's strings come in four chunks (web/build.ts lists them in the manifest): the
 * public ones, which every page of that language loads; the error messages, which every page loads
 * before it hydrates but the sign-in pages, which show none before a request fails and load them
 * once interactive; the signed-in screens', loaded with the first page under the app's layout; the
 * settings and administration screens', loaded with the first of those (the chat does not need
 * them). Another language's load only when switched to.
 */
export const loadStrings: Record<'en' | 'de', Record<StringsPart, () => Promise<Partial<Strings>>>> = {
  en: {
    public: () => import('./en/public').then((m) => m.default),
    errors: () => import('./en/errors.json').then((m) => ({ errors: m.default })),
    app: () => import('./en/app').then((m) => m.default),
    manage: () => import('./en/manage').then((m) => m.default),
  },
  de: {
    public: () => import('./de/public').then((m) => m.default),
    errors: () => import('./de/errors.json').then((m) => ({ errors: m.default })),
    app: () => import('./de/app').then((m) => m.default),
    manage: () => import('./de/manage').then((m) => m.default),
  },
}
