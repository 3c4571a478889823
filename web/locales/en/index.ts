// All English strings, for the server and tests; the browser loads ./public, ./app and ./manage as chunks of their own (web/lib/i18n.ts).
import app from './app'
import manage from './manage'
import pub from './public'

export default { ...pub, ...app, ...manage }
