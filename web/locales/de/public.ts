// The German strings every page needs (sign-in, invitations, errors, forms): the sign-in pages load only these.
import common from './common.json'
import errors from './errors.json'
import auth from './auth.json'
import validation from './validation.json'
import members from './members.json'

export default { common, errors, auth, validation, members }
