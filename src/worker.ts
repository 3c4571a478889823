/**
 * The Cloudflare Workers entry: the same app as on Bun, with the web libSQL client (Turso or
 * any libSQL server over HTTP) and static files served by Workers assets before this runs.
 * Migrations are applied ahead of deploys (`drizzle-kit migrate`), not at request time.
 */
import { createClient } from '@libsql/client/web'
import manifest from '../public/build/manifest.json'
import { createApp, type App } from './app'
import { createDeps } from './deps'
import { parseConfig } from './lib/config'
import { createPageRenderer } from './ssr/render'

let app: App | undefined

export default {
  fetch(request: Request, env: Record<string, string | undefined>) {
    if (!app) {
      const config = parseConfig(env)
      const client = createClient({ url: config.database.url, authToken: config.database.authToken })
      app = createApp(createDeps(config, { client }), { renderPage: createPageRenderer(manifest) })
    }
    return app.fetch(request, { ip: request.headers.get('cf-connecting-ip') ?? undefined })
  },
}
