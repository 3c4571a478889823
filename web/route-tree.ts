import { Route as rootRoute } from './routes/__root'
import { Route as acceptInviteRoute } from './routes/accept-invite'
import { Route as adminApiRoute } from './routes/admin-api'
import { Route as adminSecurityRoute } from './routes/admin-security'
import { Route as adminAuditRoute } from './routes/admin-audit'
import { Route as adminBillingRoute } from './routes/admin-billing'
import { Route as adminIndexRoute } from './routes/admin-index'
import { Route as adminMailsRoute } from './routes/admin-mails'
import { Route as adminGroupsRoute } from './routes/admin-groups'
import { Route as adminMcpRoute } from './routes/admin-mcp'
import { Route as adminModelsRoute } from './routes/admin-models'
import { Route as adminOrganizationRoute } from './routes/admin-organization'
import { Route as adminSettingsRoute } from './routes/admin-settings'
import { Route as adminUsageRoute } from './routes/admin-usage'
import { Route as adminUsersRoute } from './routes/admin-users'
import { Route as agentsRoute } from './routes/agents'
import { Route as appRoute } from './routes/app'
import { Route as chatRoute } from './routes/chat'
import { Route as chatThreadRoute } from './routes/chat-thread'
import { Route as confirmEmailRoute } from './routes/confirm-email'
import { Route as emailConfirmRoute } from './routes/email-confirm'
import { Route as indexRoute } from './routes/index'
import { Route as knowledgeRoute } from './routes/knowledge'
import { Route as knowledgeCollectionRoute } from './routes/knowledge-collection'
import { Route as loginRoute } from './routes/login'
import { Route as passwordForgotRoute } from './routes/password-forgot'
import { Route as passwordResetRoute } from './routes/password-reset'
import { Route as promptsRoute } from './routes/prompts'
import { Route as registerRoute } from './routes/register'
import { Route as settingsRoute } from './routes/settings'
import { Route as settingsAccountRoute } from './routes/settings-account'
import { Route as settingsApiKeysRoute } from './routes/settings-api-keys'
import { Route as settingsGeneralRoute } from './routes/settings-general'
import { Route as settingsIndexRoute } from './routes/settings-index'
import { Route as settingsUsageRoute } from './routes/settings-usage'
import { Route as sharedRoute } from './routes/shared'
import { Route as twoFactorSetupRoute } from './routes/two-factor-setup'

/** Code-based route tree (no generator step): one file per route under routes/. */
export const routeTree = rootRoute.addChildren([
  indexRoute,
  loginRoute,
  registerRoute,
  emailConfirmRoute,
  confirmEmailRoute,
  passwordForgotRoute,
  passwordResetRoute,
  acceptInviteRoute,
  twoFactorSetupRoute,
  appRoute.addChildren([
    chatRoute,
    chatThreadRoute,
    sharedRoute,
    promptsRoute,
    agentsRoute,
    knowledgeRoute,
    knowledgeCollectionRoute,
    settingsRoute.addChildren([settingsIndexRoute, settingsGeneralRoute, settingsAccountRoute, settingsApiKeysRoute, settingsUsageRoute]),
    adminSettingsRoute.addChildren([adminIndexRoute, adminOrganizationRoute, adminUsersRoute, adminGroupsRoute, adminModelsRoute, adminApiRoute, adminMcpRoute, adminUsageRoute, adminSecurityRoute, adminAuditRoute, adminBillingRoute, adminMailsRoute]),
  ]),
])
