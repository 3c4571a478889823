import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { chooseTheme, THEME_KEY, THEME_UNSAVED_KEY, themeSaved, themeScript, unsavedTheme } from './theme'

/** A browser's storage and the page's classes, as much of them as the theme's code touches. */
function fakeBrowser(stored: Record<string, string> = {}) {
  const storage = new Map(Object.entries(stored))
  const classes = new Set<string>()
  const localStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
    removeItem: (key: string) => void storage.delete(key),
  }
  const documentElement = {
    lang: '',
    classList: { toggle: (name: string, on: boolean) => void (on ? classes.add(name) : classes.delete(name)) },
    setAttribute: () => {},
  }
  return { storage, classes, localStorage, document: { documentElement, cookie: '' } }
}

/** Runs the head's script against a browser's storage; answers what it stored and whether it made the page dark. */
function runHead(stored: Record<string, string>, account?: { id: string; theme: 'light' | 'dark' | null }) {
  const browser = fakeBrowser(stored)
  const script = themeScript(account && { ...account, lang: 'en', cookie: 'lang=en' })
  new Function('localStorage', 'document', script)(browser.localStorage, browser.document)
  return { stored: Object.fromEntries(browser.storage), dark: browser.classes.has('dark') }
}

describe('the head script', () => {
  test('a signed-in page takes the account theme over the one this browser stored', () => {
    expect(runHead({ [THEME_KEY]: 'light' }, { id: 'm1', theme: 'dark' })).toEqual({ stored: { [THEME_KEY]: 'dark' }, dark: true })
    expect(runHead({ [THEME_KEY]: 'dark' }, { id: 'm1', theme: 'light' })).toEqual({ stored: { [THEME_KEY]: 'light' }, dark: false })
  })

  test('a choice of this member whose save has not arrived stays, and its mark goes once the account has it', () => {
    expect(runHead({ [THEME_KEY]: 'light', [THEME_UNSAVED_KEY]: 'm1' }, { id: 'm1', theme: 'dark' })).toEqual({
      stored: { [THEME_KEY]: 'light', [THEME_UNSAVED_KEY]: 'm1' },
      dark: false,
    })
    expect(runHead({ [THEME_KEY]: 'dark', [THEME_UNSAVED_KEY]: 'm1' }, { id: 'm1', theme: 'dark' })).toEqual({ stored: { [THEME_KEY]: 'dark' }, dark: true })
  })

  test("another member's unsaved choice does not hold this member's theme back, and its mark goes", () => {
    expect(runHead({ [THEME_KEY]: 'dark', [THEME_UNSAVED_KEY]: 'm2' }, { id: 'm1', theme: 'light' })).toEqual({ stored: { [THEME_KEY]: 'light' }, dark: false })
  })

  test('without an account theme (signed out, or never chosen) the stored theme applies as it is', () => {
    expect(runHead({ [THEME_KEY]: 'dark', [THEME_UNSAVED_KEY]: 'm1' })).toEqual({ stored: { [THEME_KEY]: 'dark', [THEME_UNSAVED_KEY]: 'm1' }, dark: true })
    expect(runHead({ [THEME_KEY]: 'dark' }, { id: 'm1', theme: null })).toEqual({ stored: { [THEME_KEY]: 'dark' }, dark: true })
  })
})

describe('a choice in this browser', () => {
  let browser = fakeBrowser()
  const globals = globalThis as unknown as Record<string, unknown>
  beforeEach(() => {
    browser = fakeBrowser()
    globals.localStorage = browser.localStorage
    globals.document = browser.document
  })
  afterEach(() => {
    delete globals.localStorage
    delete globals.document
  })

  test("is applied at once and stays this member's unsaved choice until its save arrives", () => {
    chooseTheme('dark', 'm1')
    expect(browser.classes.has('dark')).toBe(true)
    expect(unsavedTheme('m1')).toBe('dark')
    expect(unsavedTheme('m2')).toBeNull()
    themeSaved('dark')
    expect(unsavedTheme('m1')).toBeNull()
    expect(browser.storage.get(THEME_KEY)).toBe('dark')
  })

  test('a save of an earlier choice leaves a later one unsaved', () => {
    chooseTheme('dark', 'm1')
    chooseTheme('light', 'm1')
    themeSaved('dark')
    expect(unsavedTheme('m1')).toBe('light')
    themeSaved('light')
    expect(unsavedTheme('m1')).toBeNull()
  })

  test('without a known member nothing is marked', () => {
    chooseTheme('dark', undefined)
    expect(browser.storage.has(THEME_UNSAVED_KEY)).toBe(false)
    expect(browser.classes.has('dark')).toBe(true)
  })
})
