// Limits of the contract without zod, so the web can share them without loading zod's full API
// (docs/decisions/0043-smaller-client-bundles.md); schema.ts re-exports them.

/** Longest message a user can send (characters); about 8,000 tokens. */
export const MAX_MESSAGE_LENGTH = 32_000
