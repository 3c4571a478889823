// Limits of the contract without zod, so the web can share them without loading zod's full API
// (docs/decisions/0043-smaller-client-bundles.md); schema.ts re-exports them.

export const PROMPT_TITLE_MAX = 200
export const PROMPT_CONTENT_MAX = 20_000
