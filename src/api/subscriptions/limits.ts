// Limits of the contract without zod, so the web can share them without loading zod's full API
// (docs/decisions/0043-smaller-client-bundles.md); schema.ts re-exports them.

export const MAX_SEATS = 10_000
