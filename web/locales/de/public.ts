// The German strings every page needs (sign-in, invitations, forms): the sign-in pages load only these before they are interactive. The error messages (./errors.json) are a chunk of their own (web/lib/i18n.ts).
import common from './common.json'
import auth from './auth.json'
import validation from './validation.json'
import invitation from './invitation.json'

export default { common, auth, validation, invitation }
