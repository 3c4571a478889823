import type { HostResolver } from './kept-lookups'
import type { Database } from '../../db/client'
import type { Config } from './config'
import type { Logger } from './logger'
import type { FileStore, Mailer, TextRecognition } from './ports'

/**
 * Services that register themselves on the dependencies without `src/lib` importing them:
 * src/auth/auth.ts adds `auth` (the better-auth instance) by declaration merging.
 */
export interface AppServices {}

/** Everything a service may use, built once at start by the entry file (src/deps.ts). */
export type AppDeps = AppServices & {
  config: Config
  db: Database
  mailer: Mailer
  /** Reads the caller of a request from its cookie (src/auth/session.ts). */
  readSession: SessionReader
  logger: Logger
  /** Uploaded files (thread sources). */
  files: FileStore
  /**
   * The addresses a host name resolves to (the Bun entry uses the system resolver). Absent on
   * Workers, which have no DNS API: the website_content tool then judges host names by name only.
   */
  resolveHost?: HostResolver
  /** The TXT records of a name, each as its chunks (node:dns on Bun); proves SSO domains in the cloud. */
  resolveTxt?: (name: string) => Promise<string[][]>
  /** Text recognition of scans and pictures (the Bun server); absent on Workers, where such files fail with SOURCE_OCR_UNAVAILABLE. */
  ocr?: TextRecognition
  /** This process as the leases of the replies it streams name it (src/api/threads/access.ts). */
  instance: Instance
  /**
   * Whether the writes asked for in one turn of the event loop share a commit (commitTogether).
   * Not on Workers: a timer there belongs to the request that set it.
   */
  writesTogether: boolean
}

/**
 * A running process. `owner` is unique to this start. `slot` is what only one live process can hold
 * at a time (the Bun server's host name and port): a lease naming the same slot with another owner
 * was left by an earlier start there, so that process is gone. Without a slot (Workers, tests in
 * one process) leases end by time only.
 */
export type Instance = { owner: string; slot?: string }

export type Role = 'user' | 'admin'

/** The signed-in caller as services see it. */
export type Theme = 'light' | 'dark'

export type SessionUser = {
  id: string
  name: string
  email: string
  emailVerified: boolean
  role: Role
  organizationId: string
  locale: 'en' | 'de'
  /** The theme the member picked last, on any device; null until then. */
  theme: Theme | null
  /** Read with the session in the common case, so /auth/me needs no query of its own. */
  organizationName?: string
  /** The organisation requires a second factor the member has not set up: only enrolment is open (src/auth/two-factor.ts). */
  twoFactorMissing?: boolean
}

export type AppEnv = {
  Variables: {
    deps: AppDeps
    requestId: string
    logger: Logger
    user: SessionUser | null
    /** The nonce of this request's inline scripts (src/lib/security-headers.ts). */
    cspNonce: string
  }
}

/** The signed-in caller of a request, or null (src/auth/session.ts). */
export type SessionReader = (headers: Headers) => Promise<SessionUser | null>
