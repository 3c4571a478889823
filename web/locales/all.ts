import de from './de'
import en from './en'

/** Every language's strings at once, for tests; the browser and the server's rendering load what a page needs (./index.ts, decision 0113). */
export const allStrings = { en, de }
