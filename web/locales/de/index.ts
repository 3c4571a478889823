// The German strings, one chunk of their own: a page loads only its language's (web/lib/i18n.ts).
import common from './common.json'
import errors from './errors.json'
import auth from './auth.json'
import settings from './settings.json'
import validation from './validation.json'
import members from './members.json'
import groups from './groups.json'
import models from './models.json'
import chat from './chat.json'
import prompts from './prompts.json'
import agents from './agents.json'
import billing from './billing.json'
import tools from './tools.json'
import sources from './sources.json'
import mails from './mails.json'
import apiKeys from './api-keys.json'

export default { common, errors, auth, settings, validation, members, groups, models, chat, prompts, agents, billing, tools, sources, mails, apiKeys }
