export type Theme = 'light' | 'dark'
export const THEME_KEY = 'theme'

/** Runs in <head> before first paint: dark only when the stored value says so (spec section 4). */
export const themeScript = `try{if(localStorage.getItem('${THEME_KEY}')==='dark')document.documentElement.classList.add('dark')}catch(e){}`

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
