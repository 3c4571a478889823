// Apart from the domain's routes: the app reads it for every request, before any domain is loaded.
/** Path of the collection upload: the API's 1 MB JSON body limit does not apply to it (it has its own). */
export const COLLECTION_UPLOAD_PATH = /^\/api\/collections\/[^/]+\/files$/
