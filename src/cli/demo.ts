/**
 * `npm run demo`: Kontor with everything it needs on this machine and nothing from outside. Starts
 * the demo provider (src/demo/provider.ts) on 127.0.0.1, points Kontor's model, web search and
 * page reading at it, fills a fresh demo database once and prints how to sign in.
 *
 *   bun src/cli/demo.ts [--port 3000] [--data-dir ./data-demo] [--production]
 *
 * The demo keeps its own database (./data-demo), never the one of `npm start`. It runs in
 * development mode, where the mail page exists, even when the shell exports NODE_ENV=production;
 * only `--production` runs it in production mode.
 */
// First: the process may replace itself with its runtime settings (decisions 0087, 0117 and 0129).
import '../runtime-settings'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startDemoProvider } from '../demo/provider'
import { seedDemo, type DemoAccounts } from '../demo/seed'
import { developmentSecret, fail, stopOnSignals } from '../entry'
import { parseConfig } from '../lib/config'
import { startServer } from '../server'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.PORT || '3000' },
    'data-dir': { type: 'string', default: './data-demo' },
    production: { type: 'boolean', default: false },
  },
})

const dataDir = resolve(values['data-dir'])
const nodeEnv = values.production ? 'production' : 'development'
if (process.env.NODE_ENV === 'production' && !values.production) {
  console.warn('NODE_ENV=production is ignored by the demo (pass --production to run it in production mode).')
}

try {
  const apiKey = crypto.randomUUID()
  const provider = startDemoProvider({ apiKey })
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: nodeEnv,
    PORT: values.port,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
    KONTOR_DATA_DIR: dataDir,
    DATABASE_URL: `file:${join(dataDir, 'kontor.db')}`,
    DATABASE_AUTH_TOKEN: undefined,
    // The built-in web: search over its pages, and website_content may read them (they live on 127.0.0.1).
    SEARXNG_URL: provider.url,
    KONTOR_FETCH_ALLOWED_HOSTS: [process.env.KONTOR_FETCH_ALLOWED_HOSTS, '127.0.0.1'].filter(Boolean).join(','),
  }
  const config = parseConfig(env, developmentSecret(dataDir, env))
  config.providers.demo = { apiKey, baseUrl: `${provider.url}/v1` }
  const running = await startServer(config)
  await running.ready
  stopOnSignals(running, provider.stop)

  const accountsFile = join(dataDir, 'demo-accounts.json')
  let accounts: DemoAccounts
  if (existsSync(accountsFile)) accounts = JSON.parse(readFileSync(accountsFile, 'utf8'))
  else {
    // Requests go straight to the app, as if from this machine.
    accounts = await seedDemo((request) => running.app.fetch(request, { ip: '127.0.0.1' }), config.baseUrl).catch((error: Error) => {
      throw new Error(`${error.message} (delete ${dataDir} and start the demo again)`)
    })
    writeFileSync(accountsFile, JSON.stringify(accounts, null, 2), { mode: 0o600 })
  }
  const url = config.baseUrl
  console.log(`
Kontor demo is running: ${url}

  Admin    ${accounts.admin.email}   password ${accounts.admin.password}
  Member   ${accounts.member.email}   password ${accounts.member.password}

  The model is Kontor's scripted demo model on this machine: no key, nothing leaves it.
  Try: "Explain vector search", "Search the web for remote work", "Read the Kontor guide page",
  "Write an e-mail to max.member@example.com about the kick-off", or ask the chat with the travel policy.
  Mails Kontor sends: ${url}/admin-settings/mails (signed in as the admin)
  Data: ${dataDir} (delete it to start afresh). Stop with Ctrl+C.
`)
} catch (error) {
  fail(error)
}
