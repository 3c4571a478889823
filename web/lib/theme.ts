export type Theme = 'light' | 'dark'
export const THEME_KEY = 'theme'
/** Desktop sidebar state, a per-device preference like the theme. */
export const SIDEBAR_KEY = 'sidebar'

/**
 * Runs in <head> before first paint: dark only when the stored value says so (spec section 4);
 * a collapsed sidebar is marked on <html> too, so the server-rendered shell does not jump. A
 * signed-in member's page carries their account's theme, which this browser stores first (a theme
 * picked on another device wins over the one stored here), and their account's language: the
 * page's `lang` (the early head may have guessed another from the cookie, and the browser's
 * script reads it to load its strings) and the language cookie, for the pages before sign-in.
 */
export function themeScript(account?: { theme?: Theme | null; lang: string; cookie: string }) {
  const theme = account?.theme
  const adopt = theme === 'light' || theme === 'dark' ? `localStorage.setItem('${THEME_KEY}','${theme}');` : ''
  const language = account ? `d.lang=${scriptString(account.lang)};document.cookie=${scriptString(account.cookie)};` : ''
  return `try{var d=document.documentElement;${language}${adopt}d.classList.toggle('dark',localStorage.getItem('${THEME_KEY}')==='dark');if(localStorage.getItem('${SIDEBAR_KEY}')==='collapsed')d.setAttribute('data-sidebar','collapsed')}catch(e){}`
}

/** A string as a literal inside an inline script: `<` escaped, so no value can close the script. */
const scriptString = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c')

export function readTheme(): Theme {
  try {
    return localStorage.getItem(THEME_KEY) === 'dark' ? 'dark' : 'light'
  } catch {
    return 'light'
  }
}

export function applyTheme(theme: Theme) {
  try {
    localStorage.setItem(THEME_KEY, theme)
  } catch {}
  document.documentElement.classList.toggle('dark', theme === 'dark')
}

export function readSidebarCollapsed(): boolean {
  return document.documentElement.getAttribute('data-sidebar') === 'collapsed'
}

export function applySidebarCollapsed(collapsed: boolean) {
  try {
    localStorage.setItem(SIDEBAR_KEY, collapsed ? 'collapsed' : 'expanded')
  } catch {}
  if (collapsed) document.documentElement.setAttribute('data-sidebar', 'collapsed')
  else document.documentElement.removeAttribute('data-sidebar')
}
