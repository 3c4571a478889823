// Written by src/api/route-index.gen.ts from the domains' route modules (decision 0111): run it
// after changing a route (`npx bun src/api/route-index.gen.ts`); src/api/route-index.test.ts checks it.
import type { RouteDomain } from '../lib/route'

/** Each domain's API routes (method and path, in their order) and its route module, loaded on first use. */
export const API_DOMAINS: RouteDomain[] = [
  {
    load: () => import('./system/routes').then((m) => m.systemRoutes),
    routes: [
      'GET /',
      'GET /health',
      'GET /ready',
    ],
  },
  {
    load: () => import('./auth/routes').then((m) => m.authRoutes),
    routes: [
      'POST /auth/register',
      'POST /auth/login',
      'POST /auth/two-factor',
      'POST /auth/passkey/options',
      'POST /auth/passkey',
      'GET /auth/me',
      'POST /auth/logout',
    ],
  },
  {
    load: () => import('./users/routes').then((m) => m.userAccountRoutes),
    routes: [
      'POST /users/confirm-email',
      'POST /users/resend-confirmation',
      'POST /users/forgot-password',
      'POST /users/reset-password',
      'PATCH /users/name',
      'PATCH /users/locale',
      'PATCH /users/theme',
      'PATCH /users/password',
    ],
  },
  {
    load: () => import('./sessions/routes').then((m) => m.sessionRoutes),
    routes: [
      'GET /sessions',
      'POST /sessions/end-others',
      'DELETE /sessions/:id',
      'DELETE /users/:id/sessions',
    ],
  },
  {
    load: () => import('./two-factor/routes').then((m) => m.twoFactorRoutes),
    routes: [
      'GET /two-factor',
      'POST /two-factor/totp',
      'POST /two-factor/totp/verify',
      'POST /two-factor/totp/disable',
      'POST /two-factor/recovery-codes',
      'GET /two-factor/requirement',
      'PUT /two-factor/requirement',
    ],
  },
  {
    load: () => import('./passkeys/routes').then((m) => m.passkeyRoutes),
    routes: [
      'GET /passkeys',
      'POST /passkeys/options',
      'POST /passkeys',
      'PATCH /passkeys/:id',
      'DELETE /passkeys/:id',
    ],
  },
  {
    load: () => import('./members/routes').then((m) => m.memberRoutes),
    routes: [
      'GET /users',
      'PATCH /users/:id/role',
      'DELETE /users/:id',
    ],
  },
  {
    load: () => import('./groups/routes').then((m) => m.groupRoutes),
    routes: [
      'GET /groups',
      'POST /groups',
      'PATCH /groups/:id',
      'DELETE /groups/:id',
      'POST /groups/:id/members',
      'DELETE /groups/:id/members/:userId',
    ],
  },
  {
    load: () => import('./invites/routes').then((m) => m.inviteRoutes),
    routes: [
      'POST /invites',
      'GET /invites',
      'GET /invites/preview',
      'POST /invites/accept',
      'GET /invites/:id',
      'POST /invites/:id/resend',
      'DELETE /invites/:id',
    ],
  },
  {
    load: () => import('./models/routes').then((m) => m.modelRoutes),
    routes: [
      'GET /models/available',
      'GET /models/permitted',
      'PUT /models/permitted/:id/access',
      'PUT /models/permitted/:id/price',
      'DELETE /models/permitted/:id/price',
      'POST /models/permitted',
      'DELETE /models/permitted/:id',
      'GET /models/permitted/language-models',
      'GET /models/default',
      'PUT /models/organization/default',
      'DELETE /models/organization/default',
      'GET /models/user/default',
      'PUT /models/user/default',
      'DELETE /models/user/default',
      'GET /models/providers/all-with-permitted-status',
      'POST /models/providers/permitted',
      'DELETE /models/providers/permitted',
      'GET /models/embedding/enabled',
      'PUT /models/embedding',
      'DELETE /models/embedding',
      'GET /models/endpoints',
      'POST /models/endpoints',
      'DELETE /models/endpoints/:id',
    ],
  },
  {
    load: () => import('./threads/routes').then((m) => m.threadRoutes),
    routes: [
      'POST /threads',
      'GET /threads',
      'GET /threads/:id',
      'GET /threads/:id/messages',
      'PUT /threads/:id/branch',
      'PATCH /threads/:id',
      'DELETE /threads',
      'DELETE /threads/:id',
      'PATCH /threads/:id/model',
      'PATCH /threads/:id/agent',
    ],
  },
  {
    load: () => import('./search/routes').then((m) => m.searchRoutes),
    routes: [
      'GET /search',
    ],
  },
  {
    load: () => import('./sources/routes').then((m) => m.sourceRoutes),
    routes: [
      'POST /threads/:id/sources/file',
      'GET /threads/:id/sources',
      'PATCH /threads/:id/sources/:sourceId',
      'POST /threads/:id/sources/:sourceId/retry',
      'DELETE /threads/:id/sources/:sourceId',
      'GET /sources/embedding',
    ],
  },
  {
    load: () => import('./knowledge/routes').then((m) => m.knowledgeRoutes),
    routes: [
      'GET /collections',
      'POST /collections',
      'GET /collections/share-targets',
      'GET /collections/:id',
      'PATCH /collections/:id',
      'PUT /collections/:id/sharing',
      'DELETE /collections/:id',
      'GET /collections/:id/files',
      'POST /collections/:id/files',
      'POST /collections/:id/files/:fileId/retry',
      'DELETE /collections/:id/files/:fileId',
      'GET /threads/:id/collections',
      'PUT /threads/:id/collections/:collectionId',
      'DELETE /threads/:id/collections/:collectionId',
    ],
  },
  {
    load: () => import('./chat/routes').then((m) => m.chatRoutes),
    routes: [
      'POST /threads/:id/messages',
      'POST /threads/:id/regenerate',
      'GET /threads/:id/messages/:messageId/stream',
      'POST /threads/:id/messages/:messageId/stop',
    ],
  },
  {
    load: () => import('./prompts/routes').then((m) => m.promptRoutes),
    routes: [
      'POST /prompts',
      'GET /prompts',
      'GET /prompts/:id',
      'PUT /prompts/:id',
      'PUT /prompts/:id/sharing',
      'POST /prompts/:id/copy',
      'DELETE /prompts/:id',
    ],
  },
  {
    load: () => import('./agents/routes').then((m) => m.agentRoutes),
    routes: [
      'POST /agents',
      'GET /agents',
      'GET /agents/:id',
      'PUT /agents/:id',
      'PUT /agents/:id/sharing',
      'POST /agents/:id/copy',
      'DELETE /agents/:id',
    ],
  },
  {
    load: () => import('./export/routes').then((m) => m.exportRoutes),
    routes: [
      'GET /threads/:id/export',
      'GET /export',
    ],
  },
  {
    load: () => import('./shares/routes').then((m) => m.shareRoutes),
    routes: [
      'POST /threads/:id/shares',
      'GET /threads/:id/shares',
      'GET /shares/:id',
      'POST /shares/:id/continue',
      'DELETE /shares/:id',
    ],
  },
  {
    load: () => import('./subscriptions/routes').then((m) => m.subscriptionRoutes),
    routes: [
      'GET /subscriptions',
      'POST /subscriptions',
      'DELETE /subscriptions',
      'POST /subscriptions/uncancel',
      'GET /subscriptions/active',
      'GET /subscriptions/price',
      'PUT /subscriptions/seats',
      'PUT /subscriptions/billing-info',
      'GET /subscriptions/webhook-deliveries',
    ],
  },
  {
    load: () => import('./organization/routes').then((m) => m.organizationRoutes),
    routes: [
      'GET /organization',
      'PATCH /organization',
    ],
  },
  {
    load: () => import('./retention/routes').then((m) => m.retentionRoutes),
    routes: [
      'GET /organization/retention',
      'PUT /organization/retention',
    ],
  },
  {
    load: () => import('./outbox/routes').then((m) => m.outboxRoutes),
    routes: [
      'GET /dev/outbox',
    ],
  },
  {
    load: () => import('./api-keys/routes').then((m) => m.apiKeyRoutes),
    routes: [
      'GET /api-keys',
      'POST /api-keys',
      'DELETE /api-keys/:id',
      'GET /api-keys/settings',
      'PUT /api-keys/settings',
    ],
  },
  {
    load: () => import('./usage/routes').then((m) => m.usageRoutes),
    routes: [
      'GET /usage',
      'GET /usage.csv',
      'GET /usage/own',
      'GET /budgets',
      'GET /budgets/own',
      'PUT /budgets',
      'DELETE /budgets/:id',
    ],
  },
  {
    load: () => import('./audit/routes').then((m) => m.auditRoutes),
    routes: [
      'GET /audit-log',
      'GET /audit-log.csv',
    ],
  },
  {
    load: () => import('./scim/routes').then((m) => m.scimTokenRoutes),
    routes: [
      'GET /scim-tokens',
      'POST /scim-tokens',
      'DELETE /scim-tokens/:id',
    ],
  },
  {
    load: () => import('./sso/routes').then((m) => m.ssoRoutes),
    routes: [
      'GET /sso',
      'PUT /sso',
      'DELETE /sso',
      'POST /sso/domains/:domain/verify',
      'POST /auth/sso/lookup',
      'POST /auth/sso/start',
      'GET /auth/sso/callback/:providerId',
      'POST /auth/sso/saml2/sp/acs/:providerId',
      'GET /auth/sso/saml2/sp/metadata',
    ],
  },
  {
    load: () => import('./mcp-servers/routes').then((m) => m.mcpServerRoutes),
    routes: [
      'GET /mcp-servers',
      'POST /mcp-servers',
      'GET /mcp-servers/agent-choices',
      'DELETE /mcp-servers/:id',
      'GET /mcp-servers/:id/tools',
      'PUT /mcp-servers/:id/tools/:name',
      'DELETE /mcp-servers/:id/tools/:name',
    ],
  },
]
