// The page's Content-Security-Policy forbids eval. zod compiles object parsers with `new Function`
// unless told not to, and even its probe for that is reported as a violation; this module is the
// browser entry's first import, so it runs before any schema is defined. The setting is zod's
// core's, so it holds for the forms' zod/mini schemas and the contract's zod schemas alike.
// zod keeps that setting on globalThis and adopts an object already there (zod/v4/core/core.js),
// so the entry sets it without loading zod: only the pages with forms load zod (decision 0077).
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
;(holder.__zod_globalConfig ??= {}).jitless = true

export {}
