/**
 * Writes src/api/route-index.ts: each domain's API routes by method and path, and how to load
 * the domain's route module, so that the server answers a domain's first request by loading it
 * instead of loading every domain at start (decision 0111). After adding, removing or moving a
 * route, or a domain:
 *
 *   npx bun src/api/route-index.gen.ts
 *
 * `src/api/route-index.test.ts` checks that the file is what this script writes now.
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { RouteDef } from '../lib/route'

/** The domains in the order their routes are mounted: a path two domains could match goes to the first. */
export const DOMAINS: ReadonlyArray<readonly [module: string, exported: string]> = [
  ['./system/routes', 'systemRoutes'],
  ['./auth/routes', 'authRoutes'],
  ['./users/routes', 'userAccountRoutes'],
  ['./sessions/routes', 'sessionRoutes'],
  ['./two-factor/routes', 'twoFactorRoutes'],
  ['./passkeys/routes', 'passkeyRoutes'],
  ['./members/routes', 'memberRoutes'],
  ['./groups/routes', 'groupRoutes'],
  ['./invites/routes', 'inviteRoutes'],
  ['./models/routes', 'modelRoutes'],
  ['./threads/routes', 'threadRoutes'],
  ['./search/routes', 'searchRoutes'],
  ['./sources/routes', 'sourceRoutes'],
  ['./knowledge/routes', 'knowledgeRoutes'],
  ['./chat/routes', 'chatRoutes'],
  ['./prompts/routes', 'promptRoutes'],
  ['./agents/routes', 'agentRoutes'],
  ['./export/routes', 'exportRoutes'],
  ['./shares/routes', 'shareRoutes'],
  ['./subscriptions/routes', 'subscriptionRoutes'],
  ['./organization/routes', 'organizationRoutes'],
  ['./retention/routes', 'retentionRoutes'],
  ['./outbox/routes', 'outboxRoutes'],
  ['./api-keys/routes', 'apiKeyRoutes'],
  ['./usage/routes', 'usageRoutes'],
  ['./audit/routes', 'auditRoutes'],
  ['./scim/routes', 'scimTokenRoutes'],
  ['./sso/routes', 'ssoRoutes'],
  ['./mcp-servers/routes', 'mcpServerRoutes'],
]

export const INDEX_FILE = resolve(import.meta.dir, 'route-index.ts')

/**
 * A domain's routes as the index lists them (`GET /threads/:id`). Refused: a route listed twice
 * (Hono answers with the first, a domain's module would hand out the last), and routes that mount
 * themselves elsewhere (API-key access, a base other than /api).
 */
export function routeKeys(routes: RouteDef[], seen = new Set<string>()): string[] {
  return routes.map((r) => {
    if (r.access === 'apiKey' || r.base) throw new Error(`${r.path}: routes with API-key access or under ${r.base ?? '/v1'} mount themselves, not through the index`)
    const key = `${r.method.toUpperCase()} ${r.path}`
    if (seen.has(key)) throw new Error(`${key} is declared twice`)
    seen.add(key)
    return key
  })
}

/** The index's source, read from the domains' route modules. */
export async function routeIndexSource(): Promise<string> {
  const entries: string[] = []
  const seen = new Set<string>()
  for (const [module, exported] of DOMAINS) {
    const routes = (await import(module))[exported] as RouteDef[] | undefined
    if (!routes) throw new Error(`${module} exports no ${exported}`)
    const keys = routeKeys(routes, seen).map((key) => `      '${key}',`)
    entries.push(`  {\n    load: () => import('${module}').then((m) => m.${exported}),\n    routes: [\n${keys.join('\n')}\n    ],\n  },`)
  }
  return [
    '// Written by src/api/route-index.gen.ts from the domains\' route modules (decision 0111): run it',
    '// after changing a route (`npx bun src/api/route-index.gen.ts`); src/api/route-index.test.ts checks it.',
    "import type { RouteDomain } from '../lib/route'",
    '',
    '/** Each domain\'s API routes (method and path, in their order) and its route module, loaded on first use. */',
    'export const API_DOMAINS: RouteDomain[] = [',
    ...entries,
    ']',
    '',
  ].join('\n')
}

if (import.meta.main) {
  writeFileSync(INDEX_FILE, await routeIndexSource())
  console.log(`wrote ${INDEX_FILE}`)
}
