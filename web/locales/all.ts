import de from './de'
import en from './en'

/** Every language's strings at once, for the server's rendering and for tests; the browser loads one (./index.ts). */
export const allStrings = { en, de }
