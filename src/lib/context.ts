import type { Database } from '../../db/client'
import type { Auth } from '../auth/auth'
import type { Mailer } from '../mail/mailer'
import type { Config } from './config'
import type { Logger } from './logger'

/** Everything a service may use, built once at start by the entry file. */
export type AppDeps = {
  config: Config
  db: Database
  auth: Auth
  mailer: Mailer
  logger: Logger
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
}

export type AppEnv = {
  Variables: {
    deps: AppDeps
    requestId: string
    logger: Logger
    user: SessionUser | null
  }
}
