/**
 * Starts Kontor on Bun: migrates the database, wires the adapters (libSQL client, SMTP, static
 * files) and serves the app. Used by the Bun entry and by the end-to-end test server.
 */
import { createClient, type Client } from '@libsql/client'
import { mkdirSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { prepareDatabaseFile } from '../db/client'
import { migrateDatabase } from '../db/migrate'
import { createApp, type PageRenderer } from './app'
import { createDeps } from './deps'
import { ConfigError, type Config } from './lib/config'
import { isDatabaseBusy, describeDatabaseError, isDatabaseUnavailable, retryingWhenBusy, whenNotBusy } from './lib/database-errors'
import { deliverDueWebhooks } from './api/subscriptions/webhooks'
import { reencryptEndpointKeys } from './api/models/endpoint-keys'
import { reencryptMcpHeaders } from './api/mcp-servers/secrets'
import { reencryptSsoSecrets } from './api/sso/secrets'
import { reencryptTwoFactorSecrets } from './api/two-factor/secrets'
import { releaseSources, sourceUpkeep } from './api/sources/process'
import { vectorUpkeep } from './api/sources/reembed'
import { auditUpkeep } from './api/audit/service'
import { retentionUpkeep } from './api/retention/job'
import { indexLater } from './api/search/access'
import { endAbandonedReplies } from './api/threads/access'
import { tesseractRecognition } from './ocr/tesseract'
import { createLocalFileStore } from './storage/local'
import { createSmtpTransport } from './mail/smtp'
import { keptLookups } from './lib/kept-lookups'
import { loadOnce } from './lib/load-once'
import { startGate } from './lib/start-gate'
import type { WebAssets } from './ssr/render'
import { readBuiltFile, staticFiles } from './static-files'

/** Set in the server bundle (src/cli/bundle.ts): the checkout, seen from the bundle's folder. */
declare const KONTOR_ROOT_FROM_BUNDLE: string | undefined

/** The checkout: its migrations, public files and web build. */
export const ROOT = resolve(import.meta.dir, typeof KONTOR_ROOT_FROM_BUNDLE === 'string' ? KONTOR_ROOT_FROM_BUNDLE : '..')

/** The database address for logs and errors: no user, password or token. */
function shownUrl(url: string) {
  if (url.startsWith('file:')) return url
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return 'DATABASE_URL'
  }
}

/**
 * The requests that start a model reply: a chat's send or new reply, and the OpenAI-compatible
 * chat completions. Everything else (Stop, following a reply, pages, files, health checks) starts
 * at once, also during a burst.
 */
const STARTS_REPLY = /^https?:\/\/[^/]+\/(?:api\/threads\/[^/?#]+\/(?:messages|regenerate)|v1\/chat\/completions)\/?(?:[?#]|$)/

export const startsReply = (request: Request) => request.method === 'POST' && STARTS_REPLY.test(request.url)

/** How many requests that start a reply start in one turn of the event loop at most (decision 0094). */
const STARTS_PER_TURN = 8

/**
 * The start's migration. Drizzle's migrator applies what is pending in one transaction that the
 * client does not try again (`retryingWhenBusy`): a server started beside one that is writing (a
 * restart) runs the whole migration again, reading anew what is applied (the other process may
 * have applied it meanwhile).
 */
export const migrateAtStart = (client: Client, folder: string) => whenNotBusy(() => migrateDatabase(client, folder))

/**
 * The page renderer (React's server renderer, the router with its route tree), loaded once the server listens instead of before (decision 0109): the first health
 * check answers before it; a page asked for meanwhile waits for it. A renderer that fails to load
 * is logged, and each page asks for it again (and fails the same way until the code is fixed).
 */
function pageRendererAfterStart(assets: WebAssets) {
  const load = loadOnce(async () => (await import('./ssr/render')).createPageRenderer(assets))
  const render: PageRenderer = async (request, api, nonce) => (await load())(request, api, nonce)
  return { render, load }
}

let resolver: Promise<typeof import('node:dns/promises')> | undefined
const dns = () => (resolver ??= import('node:dns/promises'))

export async function startServer(config: Config) {
  const buildDir = resolve(process.env.WEB_BUILD_DIR ?? join(ROOT, 'public/build'))
  const manifest = await readBuiltFile(buildDir, 'manifest.json')
  if (manifest === null) throw new ConfigError('Web assets are missing: run `bun run build` first')
  const assets = JSON.parse(manifest) as WebAssets

  const isFile = config.database.url.startsWith('file:')
  const database = shownUrl(config.database.url)
  const setupFailed = (error: unknown) => new Error(`the database at ${database} could not be set up: ${describeDatabaseError(error)}`)
  let client: Client
  try {
    if (isFile) mkdirSync(dirname(config.database.url.slice(5)), { recursive: true })
    // A file database is opened here; a libSQL server is only reached by the first query. Another
    // process writing the same file (a second server, the one a restart runs beside) holds its lock
    // for a moment: a request waits for it rather than failing.
    client = retryingWhenBusy(createClient({ url: config.database.url, authToken: config.database.authToken }))
  } catch (error) {
    throw setupFailed(error)
  }
  const deps = createDeps(config, {
    client,
    mailTransport: config.smtp && createSmtpTransport(config.smtp),
    // Uploaded files live beside the database unless S3 is configured.
    files: createLocalFileStore(join(config.dataDir, 'files')),
    // Every outbound request (src/lib/outbound.ts) checks the addresses a name resolves to and connects to one of them;
    // a name's addresses are kept for 30 s (src/lib/kept-lookups.ts). node:dns loads on the first outbound request or domain check, not at start.
    resolveHost: keptLookups(async (host) => (await (await dns()).lookup(host, { all: true, verbatim: true })).map((a) => a.address)),
    resolveTxt: async (name) => (await dns()).resolveTxt(name),
    // Scans and pictures are read with tesseract.js, loaded when the first one is processed.
    ocr: tesseractRecognition(),
    // Only one live process listens on a host's port: a reply leased in this slot by an earlier
    // start (before a crash) is known dead as soon as this process serves (Bun.serve below).
    slot: `${hostname()}:${config.port}`,
  })
  // Another process writing the same database file (a second server, the live one a restart runs
  // beside) holds its lock for a moment: the sweep tries again rather than leaving replies streaming.
  const endInterruptedReplies = async (attempt = 1): Promise<void> => {
    try {
      const ended = await endAbandonedReplies(deps)
      if (ended.length) deps.logger.info('ended interrupted replies', { count: ended.length })
    } catch (error) {
      if (isDatabaseBusy(error) && attempt < 50 && !stopping) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        return endInterruptedReplies(attempt + 1)
      }
      deps.logger.warn('could not end interrupted replies', { error: describeDatabaseError(error), attempts: attempt })
    }
  }
  const prepareDatabase = async () => {
    // A database file is written ahead (WAL) and has a larger page cache (db/client.ts); both are
    // stored in the file, so every connection and process on it uses them.
    if (isFile) await prepareDatabaseFile(client)
    // The single binary unpacks its migrations and assets elsewhere and says where.
    await migrateAtStart(client, process.env.KONTOR_MIGRATIONS_DIR ?? join(ROOT, 'drizzle'))
  }

  // A libSQL server that does not answer yet (it may be starting beside Kontor) is waited for:
  // Kontor serves meanwhile, /api/ready answers 503 and requests get a clear 503 until it is up.
  // Any other failure (a file that cannot be opened, a refused token, a broken migration) stops
  // the start; `ready` rejects when one happens while waiting.
  let stopping = false
  let ready: Promise<void>
  try {
    await prepareDatabase()
    ready = Promise.resolve()
  } catch (error) {
    if (isFile || !isDatabaseUnavailable(error)) throw setupFailed(error)
    deps.logger.error('database unreachable, waiting for it', { database, error: describeDatabaseError(error) })
    ready = (async () => {
      for (let wait = 1000; !stopping; wait = Math.min(wait * 2, 15_000)) {
        await new Promise((r) => setTimeout(r, wait))
        try {
          await prepareDatabase()
          deps.logger.info('database reachable, migrations applied', { database })
          return
        } catch (retryError) {
          if (!isDatabaseUnavailable(retryError)) throw setupFailed(retryError)
          deps.logger.warn('database still unreachable', { database, error: describeDatabaseError(retryError) })
        }
      }
    })()
  }

  const buildFiles = staticFiles({
    root: buildDir,
    prefix: 'build',
    rewriteRequestPath: (path) => path.replace(/^\/build/, ''),
    precompressed: true,
    // Hashed build files never change.
    cacheControl: 'public, max-age=31536000, immutable',
  })
  const publicFiles = staticFiles({ root: join(ROOT, 'public'), prefix: 'public', cacheControl: 'public, max-age=300' })
  const pages = pageRendererAfterStart(assets)
  const app = createApp(deps, {
    // public/_headers is the Workers' header rules for these files, not a file to hand out.
    assets: (c, next) => (c.req.path.startsWith('/build/') ? buildFiles(c, next) : c.req.path === '/_headers' ? next() : publicFiles(c, next)),
    renderPage: pages.render,
  })

  // A burst of sends starts a few per turn, between the tokens of the replies streaming
  // (lib/start-gate.ts): eight sends are about ten milliseconds of work.
  const startsNow = startGate(STARTS_PER_TURN)
  const server = Bun.serve({
    port: config.port,
    // Streamed chat replies may stay open for minutes.
    idleTimeout: 0,
    fetch: (request, srv) => {
      const ip = srv.requestIP(request)?.address
      const wait = startsReply(request) ? startsNow() : undefined
      return wait ? wait.then(() => app.fetch(request, { ip })) : app.fetch(request, { ip })
    },
  })
  deps.logger.info('Kontor is running', { url: config.baseUrl, port: server.port })
  setTimeout(() => pages.load().catch((error) => deps.logger.error('the page renderer could not be loaded', { error })), 0)

  // Background work starts once the database is there.
  let webhookTimer: ReturnType<typeof setInterval> | undefined
  let sourcesTimer: ReturnType<typeof setInterval> | undefined
  void ready.then(
    () => {
      if (stopping) return
      // While the secret is being rotated, endpoint keys move to the new one (README "Rotating the secret").
      void reencryptEndpointKeys(deps).catch((error) => deps.logger.warn('re-encrypting endpoint keys failed', { error }))
      void reencryptMcpHeaders(deps).catch((error) => deps.logger.warn('re-encrypting MCP server headers failed', { error }))
      void reencryptSsoSecrets(deps).catch((error) => deps.logger.warn('re-encrypting SSO client secrets failed', { error }))
      void reencryptTwoFactorSecrets(deps).catch((error) => deps.logger.warn('re-encrypting two-factor secrets failed', { error }))
      // Replies left streaming by a process that died (a crash, a kill, a lost machine) are ended
      // `interrupted`: those of this slot's earlier starts at once, others' once their lease ran out.
      // They wait to be put in the search index with others (decision 0107), as does what an
      // earlier process left waiting; the parts that ended replies appended go with them (decision 0137).
      void endInterruptedReplies().finally(() => void indexLater(deps))
      // Billing webhooks that could not be delivered at once are retried from the outbox.
      if (config.billing.webhook) {
        webhookTimer = setInterval(() => void deliverDueWebhooks(deps).catch((error) => deps.logger.warn('webhook delivery run failed', { error })), 15_000)
      }
      // Sources whose processing was cut off (a crash, a restart) or waits for a retry are
      // resumed; files of deleted sources that are still stored are removed. The daily retention
      // run (from the start on) goes beside it: a long run must not hold up the sources.
      let resuming = false
      const resume = () => {
        void retentionUpkeep(deps)
        if (resuming) return
        resuming = true
        void Promise.all([sourceUpkeep(deps), vectorUpkeep(deps), auditUpkeep(deps)]).finally(() => (resuming = false))
      }
      resume()
      sourcesTimer = setInterval(resume, 10_000)
    },
    () => {},
  )

  return {
    app,
    deps,
    server,
    /** Resolves when the database is migrated; rejects when setting it up failed for good. */
    ready,
    async stop() {
      stopping = true
      clearInterval(webhookTimer)
      clearInterval(sourcesTimer)
      // Sources being processed here are handed back for another process to resume at once.
      await releaseSources(deps).catch((error) => deps.logger.warn('handing back sources failed', { error: describeDatabaseError(error) }))
      await server.stop()
      client.close()
    },
  }
}
