export type Theme = 'light' | 'dark'
export const THEME_KEY = 'theme'
/**
 * Set, to the member's id, while the theme they picked in this browser has not reached their account
 * (its save is on the way, or was cut off by a reload or a lost connection): their account's theme
 * does not replace it, and their next signed-in page sends it again (`useSaveUnsavedTheme`).
 */
export const THEME_UNSAVED_KEY = 'theme-unsaved'
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
export function themeScript(account?: { id: string; theme?: Theme | null; lang: string; cookie: string }) {
  const theme = account?.theme
  // The account's theme, unless this member's choice in this browser has not reached it yet (once
  // it has, the mark goes; a mark of someone else who used this browser goes too).
  const adopt =
    theme === 'light' || theme === 'dark'
      ? `var u=localStorage.getItem('${THEME_UNSAVED_KEY}');if(u!==${scriptString(account!.id)}){localStorage.setItem('${THEME_KEY}','${theme}');if(u)localStorage.removeItem('${THEME_UNSAVED_KEY}')}else if(localStorage.getItem('${THEME_KEY}')==='${theme}')localStorage.removeItem('${THEME_UNSAVED_KEY}');`
      : ''
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

/** A member's choice in this browser: applied at once and marked theirs and unsaved until their account has it (`themeSaved`). */
export function chooseTheme(theme: Theme, memberId: string | undefined) {
  applyTheme(theme)
  try {
    if (memberId) localStorage.setItem(THEME_UNSAVED_KEY, memberId)
  } catch {}
}

/** The account has `theme`: the mark goes, unless another choice has been made since. */
export function themeSaved(theme: Theme) {
  try {
    if (localStorage.getItem(THEME_KEY) === theme) localStorage.removeItem(THEME_UNSAVED_KEY)
  } catch {}
}

/** The theme this member chose in this browser that their account does not have yet, if any. */
export function unsavedTheme(memberId: string): Theme | null {
  try {
    return localStorage.getItem(THEME_UNSAVED_KEY) === memberId ? readTheme() : null
  } catch {
    return null
  }
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
