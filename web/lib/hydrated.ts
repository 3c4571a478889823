/** Sent on the document once React has hydrated the page (the root route's first effect). */
export const HYDRATED_EVENT = 'kontor:hydrated'
