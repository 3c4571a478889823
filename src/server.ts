/**
 * Starts Kontor on Bun: migrates the database, wires the adapters (libSQL client, SMTP, static
 * files) and serves the app. Used by the Bun entry and by the end-to-end test server.
 */
import { createClient } from '@libsql/client'
import { serveStatic } from 'hono/bun'
import { lookup } from 'node:dns/promises'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { migrateDatabase } from '../db/migrate'
import { createApp } from './app'
import { createDeps } from './deps'
import { ConfigError, type Config } from './lib/config'
import { deliverDueWebhooks } from './api/subscriptions/webhooks'
import { releaseSources, resumeSources } from './api/sources/process'
import { sweepDeletedFiles } from './api/sources/service'
import { createLocalFileStore } from './storage/local'
import { createSmtpTransport } from './mail/smtp'
import { createPageRenderer, type WebAssets } from './ssr/render'

export const ROOT = resolve(import.meta.dir, '..')

export async function startServer(config: Config) {
  if (config.database.url.startsWith('file:')) mkdirSync(dirname(config.database.url.slice(5)), { recursive: true })
  const client = createClient({ url: config.database.url, authToken: config.database.authToken })
  // A database file is written ahead (WAL): a commit appends to one log instead of rewriting a
  // rollback journal with several syncs, which every sent message and streamed reply waits for.
  // The mode is stored in the file, so every connection and process on it uses it.
  if (config.database.url.startsWith('file:')) await client.execute('PRAGMA journal_mode = WAL')
  // The single binary unpacks its migrations and assets elsewhere and says where.
  await migrateDatabase(client, process.env.KONTOR_MIGRATIONS_DIR ?? join(ROOT, 'drizzle'))

  const deps = createDeps(config, {
    client,
    mailTransport: config.smtp && createSmtpTransport(config.smtp),
    // Uploaded files live beside the database unless S3 is configured.
    files: createLocalFileStore(join(config.dataDir, 'files')),
    // The website_content tool checks every address a name resolves to before fetching it.
    resolveHost: async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address),
  })
  const buildDir = resolve(process.env.WEB_BUILD_DIR ?? join(ROOT, 'public/build'))
  const manifestFile = join(buildDir, 'manifest.json')
  if (!existsSync(manifestFile)) throw new ConfigError('Web assets are missing: run `bun run build` first')
  const assets = JSON.parse(readFileSync(manifestFile, 'utf8')) as WebAssets

  const buildFiles = serveStatic({
    root: buildDir,
    rewriteRequestPath: (path) => path.replace(/^\/build/, ''),
    precompressed: true,
    // Hashed build files never change.
    onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
  })
  const publicFiles = serveStatic({
    root: process.env.KONTOR_PUBLIC_DIR ?? join(ROOT, 'public'),
    onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=300'),
  })
  const app = createApp(deps, {
    assets: (c, next) => (c.req.path.startsWith('/build/') ? buildFiles(c, next) : publicFiles(c, next)),
    renderPage: createPageRenderer(assets),
  })

  const server = Bun.serve({
    port: config.port,
    // Streamed chat replies may stay open for minutes.
    idleTimeout: 0,
    fetch: (request, srv) => app.fetch(request, { ip: srv.requestIP(request)?.address }),
  })
  deps.logger.info('Kontor is running', { url: config.baseUrl, port: server.port })

  // Billing webhooks that could not be delivered at once are retried from the outbox.
  const webhookTimer = config.billing.webhook
    ? setInterval(() => void deliverDueWebhooks(deps).catch((error) => deps.logger.warn('webhook delivery run failed', { error })), 15_000)
    : undefined

  // Sources whose processing was cut off (a crash, a restart) or waits for a retry are resumed;
  // files of deleted sources that are still stored are removed.
  let resuming = false
  const resume = () => {
    if (resuming) return
    resuming = true
    void Promise.all([
      resumeSources(deps).catch((error) => deps.logger.warn('resuming sources failed', { error })),
      sweepDeletedFiles(deps).catch((error) => deps.logger.warn('removing deleted files failed', { error })),
    ]).finally(() => (resuming = false))
  }
  resume()
  const sourcesTimer = setInterval(resume, 10_000)

  return {
    app,
    deps,
    server,
    async stop() {
      clearInterval(webhookTimer)
      clearInterval(sourcesTimer)
      // Sources being processed here are handed back for another process to resume at once.
      await releaseSources(deps)
      await server.stop()
      client.close()
    },
  }
}
