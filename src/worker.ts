/**
 * The Cloudflare Workers entry: the same app as on Bun, with the web libSQL client (Turso or
 * any libSQL server over HTTP), uploaded files in R2 (the `FILES` bucket binding) and static files
 * served by Workers assets before this runs. Migrations are applied ahead of deploys
 * (`drizzle-kit migrate`), not at request time.
 *
 * Background work: an upload's processing runs on after the response through `waitUntil`; the
 * cron trigger (wrangler.toml) resumes what was cut off (Workers limit how long that may run),
 * removes files of deleted sources and delivers billing webhooks, as the Bun server's timers do;
 * while KONTOR_SECRET_PREVIOUS is set it also moves endpoint keys, MCP server headers, SSO client
 * secrets and two-factor secrets to the current secret.
 */
import { createClient } from '@libsql/client/web'
import type { ExecutionContext } from 'hono'
import manifest from '../public/build/manifest.json'
import { reencryptEndpointKeys } from './api/models/endpoint-keys'
import { reencryptMcpHeaders } from './api/mcp-servers/secrets'
import { indexAllWaiting } from './api/search/index-later'
import { reencryptSsoSecrets } from './api/sso/secrets'
import { reencryptTwoFactorSecrets } from './api/two-factor/secrets'
import { sourceUpkeep } from './api/sources/process'
import { vectorUpkeep } from './api/sources/reembed'
import { auditUpkeep } from './api/audit/service'
import { retentionUpkeep } from './api/retention/job'
import { deliverDueWebhooks } from './api/subscriptions/webhooks'
import { createApp, type App } from './app'
import { createDeps } from './deps'
import { ConfigError, parseConfig } from './lib/config'
import type { AppDeps } from './lib/context'
import { AppError } from './lib/errors'
import { COMMON_HEADERS, NON_PAGE_CSP } from './lib/security-headers'
import { createPageRenderer } from './ssr/render'
import { createR2FileStore, isR2Bucket } from './storage/r2'

/** Variables (strings) and bindings (objects such as the R2 bucket) as Workers pass them. */
type Env = Record<string, unknown>

let instance: { app: App; deps: AppDeps } | undefined

function setup(env: Env) {
  if (!instance) {
    const vars = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
    const config = parseConfig(vars)
    const client = createClient({ url: config.database.url, authToken: config.database.authToken })
    // S3 settings, when given, win over the binding (src/deps.ts); without either, uploads are refused.
    // A timer belongs to the request that set it: each write commits on its own (commitTogether).
    const deps = createDeps(config, { client, files: isR2Bucket(env.FILES) ? createR2FileStore(env.FILES) : undefined, writesTogether: false })
    instance = { deps, app: createApp(deps, { renderPage: createPageRenderer(manifest) }) }
  }
  return instance
}

/** One run of the periodic work; each part logs its own failure and never stops the others. */
async function backgroundWork(deps: AppDeps) {
  await Promise.all([
    sourceUpkeep(deps),
    vectorUpkeep(deps),
    deps.config.billing.webhook ? deliverDueWebhooks(deps).catch((error) => deps.logger.warn('webhook delivery run failed', { error })) : undefined,
    reencryptEndpointKeys(deps).catch((error) => deps.logger.warn('re-encrypting endpoint keys failed', { error })),
    reencryptMcpHeaders(deps).catch((error) => deps.logger.warn('re-encrypting MCP server headers failed', { error })),
    reencryptSsoSecrets(deps).catch((error) => deps.logger.warn('re-encrypting SSO client secrets failed', { error })),
    reencryptTwoFactorSecrets(deps).catch((error) => deps.logger.warn('re-encrypting two-factor secrets failed', { error })),
    auditUpkeep(deps),
    retentionUpkeep(deps),
    // Replies ended as interrupted by a read (no reply's own end): indexed, and their appended parts deleted (decisions 0107 and 0137).
    indexAllWaiting(deps).catch((error) => deps.logger.warn('indexing ended replies failed', { error })),
  ])
}

/**
 * Workers have no start to refuse: with a configuration that does not parse, every request is
 * answered 503 and the log names the variable, once per isolate, in the one line the Bun server
 * would stop with. The variables are read again on each request until they are right.
 */
let reportedConfigError: string | undefined

function misconfigured(error: ConfigError) {
  if (reportedConfigError !== error.message) console.error(error.message)
  reportedConfigError = error.message
  const unavailable = new AppError('SERVICE_UNAVAILABLE')
  return Response.json(unavailable.toBody(), {
    status: unavailable.status,
    headers: { 'retry-after': '60', ...COMMON_HEADERS, 'content-security-policy': NON_PAGE_CSP },
  })
}

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext) {
    let app: App
    try {
      app = setup(env).app
    } catch (error) {
      if (error instanceof ConfigError) return misconfigured(error)
      throw error
    }
    // The execution context reaches routes as c.executionCtx (an upload's waitUntil).
    return app.fetch(request, { ip: request.headers.get('cf-connecting-ip') ?? undefined }, ctx)
  },
  scheduled(_controller: unknown, env: Env, ctx: ExecutionContext) {
    try {
      ctx.waitUntil(backgroundWork(setup(env).deps))
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      misconfigured(error)
    }
  },
}
