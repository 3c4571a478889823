import type { Database } from '../../db/client'
import type { Auth } from '../auth/auth'
import type { Mailer } from '../mail/mailer'
import type { FileStore } from '../storage/file-store'
import type { Config } from './config'
import type { Logger } from './logger'

/** Everything a service may use, built once at start by the entry file. */
export type AppDeps = {
  config: Config
  db: Database
  auth: Auth
  mailer: Mailer
  logger: Logger
  /** Uploaded files (thread sources). */
  files: FileStore
  /**
   * The addresses a host name resolves to (the Bun entry uses the system resolver). Absent on
   * Workers, which have no DNS API: the website_content tool then judges host names by name only.
   */
  resolveHost?: (hostname: string) => Promise<string[]>
}

export type Role = 'user' | 'admin'

/** The signed-in caller as services see it. */
export type SessionUser = {
  id: string
  name: string
  email: string
  emailVerified: boolean
  role: Role
  organizationId: string
  locale: 'en' | 'de'
  /** Read with the session in the common case, so /auth/me needs no query of its own. */
  organizationName?: string
}

export type AppEnv = {
  Variables: {
    deps: AppDeps
    requestId: string
    logger: Logger
    user: SessionUser | null
  }
}
