import type en from './en'
import type enPublic from './en/public'
import type enManage from './en/manage'

/** One language's strings, by namespace. German has the same keys (locales.test.ts). */
export type Strings = typeof en

export const namespaces = ['common', 'errors', 'auth', 'settings', 'validation', 'members', 'groups', 'models', 'chat', 'prompts', 'agents', 'billing', 'tools', 'sources', 'mails', 'apiKeys', 'audit', 'knowledge', 'mcp', 'security', 'usage'] as const satisfies ReadonlyArray<keyof Strings>

/**
 * The namespaces every page needs (./en/public.ts); those of the settings and administration
 * screens (./en/manage.ts); the rest are the other signed-in screens' (./en/app.ts).
 */
export const publicNamespaces = ['common', 'errors', 'auth', 'validation', 'members'] as const satisfies ReadonlyArray<keyof typeof enPublic>
export const manageNamespaces = ['settings', 'models', 'groups', 'billing', 'mails', 'apiKeys', 'audit', 'security', 'usage', 'mcp'] as const satisfies ReadonlyArray<keyof typeof enManage>

export type StringsPart = 'public' | 'app' | 'manage'

/**
 * Each language's strings come in three chunks (web/build.ts lists them in the manifest): the
 * public ones, which every page of that language loads; the signed-in screens', loaded with the
 * first page under the app's layout; the settings and administration screens', loaded with the
 * first of those (the chat does not need them). Another language's load only when switched to.
 */
export const loadStrings: Record<'en' | 'de', Record<StringsPart, () => Promise<Partial<Strings>>>> = {
  en: {
    public: () => import('./en/public').then((m) => m.default),
    app: () => import('./en/app').then((m) => m.default),
    manage: () => import('./en/manage').then((m) => m.default),
  },
  de: {
    public: () => import('./de/public').then((m) => m.default),
    app: () => import('./de/app').then((m) => m.default),
    manage: () => import('./de/manage').then((m) => m.default),
  },
}
