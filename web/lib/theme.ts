export type Theme = 'light' | 'dark'
export const THEME_KEY = 'theme'
/** Desktop sidebar state, a per-device preference like the theme. */
export const SIDEBAR_KEY = 'sidebar'

/**
 * Runs in <head> before first paint: dark only when the stored value says so (spec section 4);
 * a collapsed sidebar is marked on <html> too, so the server-rendered shell does not jump. A
 * signed-in member's page carries the theme of their account, which this browser stores first:
 * a theme picked on another device wins over the one stored here.
 */
export function themeScript(accountTheme?: Theme | null) {
  const adopt = accountTheme === 'light' || accountTheme === 'dark' ? `localStorage.setItem('${THEME_KEY}','${accountTheme}');` : ''
  return `try{var d=document.documentElement;${adopt}if(localStorage.getItem('${THEME_KEY}')==='dark')d.classList.add('dark');if(localStorage.getItem('${SIDEBAR_KEY}')==='collapsed')d.setAttribute('data-sidebar','collapsed')}catch(e){}`
}

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
