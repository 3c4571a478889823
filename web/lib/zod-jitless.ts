import { config } from 'zod/mini'

// The page's Content-Security-Policy forbids eval. zod compiles object parsers with `new Function`
// unless told not to, and even its probe for that is reported as a violation; this module is the
// browser entry's first import, so it runs before any schema is defined. The setting is zod's
// core's, so it holds for the forms' zod/mini schemas and the contract's zod schemas alike.
config({ jitless: true })
