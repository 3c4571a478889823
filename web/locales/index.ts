import type en from './en'

/** One language's strings, by namespace. German has the same keys (locales.test.ts). */
export type Strings = typeof en

export const namespaces = ['common', 'errors', 'auth', 'settings', 'validation', 'members', 'groups', 'models', 'chat', 'prompts', 'agents', 'billing', 'tools', 'sources', 'mails', 'apiKeys', 'audit', 'knowledge', 'mcp', 'security', 'usage'] as const satisfies ReadonlyArray<keyof Strings>

/**
 * Each language is a chunk of its own (web/build.ts lists them in the manifest): a page loads
 * the strings of the language it is shown in, and another language's only when switched to.
 */
export const loadStrings = {
  en: () => import('./en').then((m) => m.default as Strings),
  de: () => import('./de').then((m) => m.default as Strings),
}
