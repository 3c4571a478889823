import type { Client } from '@libsql/client'
import { createDatabase } from '../db/client'
import { createAuth } from './auth/auth'
import type { Config } from './lib/config'
import type { AppDeps } from './lib/context'
import { createLogger } from './lib/logger'
import { createMailer, type MailTransport } from './mail/mailer'

/** Wires the services' dependencies from configuration and the entry's adapters. */
export function createDeps(config: Config, adapters: { client: Client; mailTransport?: MailTransport }): AppDeps {
  const db = createDatabase(adapters.client)
  const logger = createLogger(config.logLevel)
  const mailer = createMailer({ db, logger, from: config.mailFrom, transport: adapters.mailTransport })
  const auth = createAuth({ db, config, mailer, logger })
  return { config, db, auth, mailer, logger }
}
