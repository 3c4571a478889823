// Limits of the contract without zod, so the web can share them (docs/decisions/0043-smaller-client-bundles.md).

export const COLLECTION_NAME_MAX = 120
export const COLLECTION_DESCRIPTION_MAX = 1000
/** Groups one collection may be shared with. */
export const COLLECTION_GROUPS_MAX = 50
/** Collections attached to one chat or one agent. */
export const COLLECTIONS_PER_CHAT_MAX = 20
/** What a share gives: readers search the collection, editors also upload, delete and rename. */
export const COLLECTION_ROLES = ['reader', 'editor'] as const
