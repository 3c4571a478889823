// Apart from the domain's routes: the app reads it for every request, before any domain is loaded.
/** Path of the upload: the API's 1 MB JSON body limit does not apply to it (it has its own). */
export const UPLOAD_PATH = /^\/api\/threads\/[^/]+\/sources\/file$/
