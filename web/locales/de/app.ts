// The German strings of the signed-in screens: loaded with the first page under the app's layout (web/lib/i18n.ts).
import settings from './settings.json'
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
import audit from './audit.json'
import security from './security.json'
import usage from './usage.json'
import mcp from './mcp.json'
import knowledge from './knowledge.json'

export default { settings, groups, models, chat, prompts, agents, billing, tools, sources, mails, apiKeys, audit, security, usage, mcp, knowledge }
