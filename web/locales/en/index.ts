// All English strings, for the server and tests; the browser loads ./public and ./app as chunks of their own (web/lib/i18n.ts).
import app from './app'
import pub from './public'

export default { ...pub, ...app }
