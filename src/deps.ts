import type { Client } from '@libsql/client'
import { createDatabase } from '../db/client'
import { lazyAuth } from './auth/lazy-auth'
import { readSessionUser } from './auth/session'
import type { Config } from './lib/config'
import type { AppDeps } from './lib/context'
import { createLogger } from './lib/logger'
import { outboundFetch, serverPolicy } from './lib/outbound'
import { createMailer, type MailTransport } from './mail/mailer'
import { noFileStore, type FileStore } from './storage/file-store'
import { createS3FileStore } from './storage/s3'

/** Wires the services' dependencies from configuration and the entry's adapters. */
export function createDeps(
  config: Config,
  adapters: { client: Client; mailTransport?: MailTransport; files?: FileStore; resolveHost?: AppDeps['resolveHost']; resolveTxt?: AppDeps['resolveTxt']; ocr?: AppDeps['ocr']; slot?: string; writesTogether?: boolean },
): AppDeps {
  const db = createDatabase(adapters.client)
  const logger = createLogger(config.logLevel)
  const mailer = createMailer({ db, logger, from: config.mailFrom, transport: adapters.mailTransport })
  // better-auth loads on its first use, not at start (decision 0078).
  const auth = lazyAuth(async () => (await import('./auth/auth')).createAuth({ db, config, mailer, logger }))
  // S3 settings win; else the entry's store (local disk on Bun); else none (uploads are refused).
  const files = config.s3
    ? createS3FileStore(config.s3, { fetch: outboundFetch(serverPolicy({ config, resolveHost: adapters.resolveHost }, config.s3.endpoint)) })
    : (adapters.files ?? noFileStore)
  const readSession: AppDeps['readSession'] = (headers) => readSessionUser({ auth, db, config }, headers)
  const start = crypto.randomUUID()
  const instance = { owner: adapters.slot ? `${adapters.slot}/${start}` : start, slot: adapters.slot }
  return { config, db, auth, mailer, logger, files, readSession, resolveHost: adapters.resolveHost, resolveTxt: adapters.resolveTxt, ocr: adapters.ocr, instance, writesTogether: adapters.writesTogether ?? true }
}
