// All English strings, for tests; the browser and the server's rendering load ./public, ./errors.json, ./app and ./manage as chunks of their own (web/lib/i18n.ts).
import app from './app'
import manage from './manage'
import pub from './public'
import errors from './errors.json'

export default { ...pub, errors, ...app, ...manage }
