// The English strings of the settings and administration screens (and the two-factor set-up): loaded with the first such page (web/lib/i18n.ts).
import settings from './settings.json'
import models from './models.json'
import groups from './groups.json'
import billing from './billing.json'
import mails from './mails.json'
import apiKeys from './api-keys.json'
import audit from './audit.json'
import security from './security.json'
import usage from './usage.json'
import mcp from './mcp.json'
import members from './members.json'

export default { settings, models, groups, billing, mails, apiKeys, audit, security, usage, mcp, members }
