// Limits of the search contract without zod, so the web can share them without loading zod's full
// API (docs/decisions/0043-smaller-client-bundles.md); schema.ts re-exports them.

/** Longest search text (characters): a few words are searched; a pasted page is refused. */
export const MAX_SEARCH_LENGTH = 200

/** Results of one search, at most. */
export const MAX_SEARCH_RESULTS = 50
