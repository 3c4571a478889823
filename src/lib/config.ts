import { z } from 'zod'
import { isAllowedHostEntry } from './allowed-hosts'

const flag = z
  .preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(['true', 'false', '1', '0', ''], { error: 'must be true, false, 1 or 0' }))
  .default('false')
  .transform((v) => v === 'true' || v === '1')

/** A whole number in a range, with one message for every way of missing it. */
const integer = (min: number, max: number) => {
  const error = `must be a whole number from ${min} to ${max}`
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error })
}

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` })

/** A host name such as `mail.example` (lower case, no trailing dot). */
const DOMAIN_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v ? v : undefined))

export const configSchema = z
  .object({
    NODE_ENV: oneOf(['development', 'production', 'test']).default('development'),
    PORT: integer(1, 65535).default(3000),
    // Default: kontor.db inside KONTOR_DATA_DIR (filled in after parsing).
    DATABASE_URL: z
      .string()
      .refine((v) => /^(file:|libsql:|https?:|wss?:)/.test(v), 'must start with file:, libsql:, http(s): or ws(s):')
      .optional(),
    DATABASE_AUTH_TOKEN: optionalText,
    KONTOR_DATA_DIR: z.string().default('./data'),
    KONTOR_SECRET: optionalText.refine((v) => !v || v.length >= 32, 'must be at least 32 characters'),
    KONTOR_SECRET_PREVIOUS: optionalText.refine((v) => !v || v.length >= 32, 'must be at least 32 characters'),
    KONTOR_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    KONTOR_CLOUD: flag,
    KONTOR_REGISTRATION: oneOf(['open', 'first-only', 'closed']).optional(),
    KONTOR_REGISTRATION_DISABLED: flag,
    KONTOR_FREEMAIL_EXTRA: z
      .string()
      .default('')
      .transform((v) => v.split(',').map((d) => d.trim().toLowerCase()).filter(Boolean))
      .refine((domains) => domains.every((d) => DOMAIN_NAME.test(d)), 'must be domain names separated by commas, e.g. mail.example,freemail.example'),
    KONTOR_TRUST_PROXY: flag,
    SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional()),
    SMTP_HOST: optionalText,
    SMTP_PORT: integer(1, 65535).optional(),
    SMTP_USER: optionalText,
    SMTP_PASSWORD: optionalText,
    SMTP_FROM: z.string().default('Kontor <no-reply@localhost>'),
    LOG_LEVEL: oneOf(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    OPENAI_API_KEY: optionalText,
    OPENAI_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    ANTHROPIC_API_KEY: optionalText,
    ANTHROPIC_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    MISTRAL_API_KEY: optionalText,
    MISTRAL_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    OLLAMA_BASE_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    OLLAMA_API_KEY: optionalText,
    KONTOR_PRICE_PER_SEAT_MONTHLY: integer(0, 10_000_000).default(1500),
    KONTOR_CURRENCY: z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter currency code').default('EUR'),
    KONTOR_TRIAL_MESSAGES: integer(0, 1_000_000).default(50),
    KONTOR_API_RATE_LIMIT: integer(1, 1_000_000).default(60),
    KONTOR_AUDIT_RETENTION_DAYS: integer(1, 36_500).default(400),
    KONTOR_BILLING_WEBHOOK_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    KONTOR_BILLING_WEBHOOK_SECRET: optionalText,
    S3_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    S3_BUCKET: optionalText,
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_REGION: z.string().default('us-east-1'),
    SEARXNG_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    KONTOR_RERANK_URL: optionalText.pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional()),
    KONTOR_RERANK_MODEL: optionalText,
    KONTOR_RERANK_API_KEY: optionalText,
    BRAVE_API_KEY: optionalText,
    BRAVE_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://api.search.brave.com'),
    TAVILY_API_KEY: optionalText,
    TAVILY_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://api.tavily.com'),
    KONTOR_FETCH_ALLOWED_HOSTS: z
      .string()
      .default('')
      .transform((v) => v.split(',').map((h) => h.trim().toLowerCase().replace(/^\[|\]$/g, '')).filter(Boolean))
      .refine((hosts) => hosts.every(isAllowedHostEntry), 'must be host names, IP addresses or CIDR ranges separated by commas, e.g. wiki.intranet,10.0.0.7,10.20.0.0/16'),
  })
  .refine((c) => c.NODE_ENV !== 'production' || c.KONTOR_SECRET, {
    path: ['KONTOR_SECRET'],
    message: 'is required in production (at least 32 characters)',
  })
  .refine((c) => !c.KONTOR_REGISTRATION_DISABLED || !c.KONTOR_REGISTRATION || c.KONTOR_REGISTRATION === 'closed', {
    path: ['KONTOR_REGISTRATION_DISABLED'],
    message: 'contradicts KONTOR_REGISTRATION; set only KONTOR_REGISTRATION',
  })
  .refine((c) => !(c.S3_ENDPOINT || c.S3_BUCKET) || (c.S3_ENDPOINT && c.S3_BUCKET && c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY), {
    path: ['S3_BUCKET'],
    message: 'needs S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY set together',
  })

export type RawConfig = z.infer<typeof configSchema>

/** Every variable the configuration reads (the README's configuration table lists each). */
export const CONFIG_VARIABLES = Object.keys(configSchema.shape)

/** Configuration as the app uses it: parsed once at start and passed down, never read again. */
export type Config = {
  env: RawConfig['NODE_ENV']
  port: number
  baseUrl: string
  database: { url: string; authToken?: string }
  dataDir: string
  secret: string
  /**
   * The secret before the last rotation (KONTOR_SECRET_PREVIOUS): endpoint keys encrypted with it
   * are still read, and encrypted again with `secret`.
   */
  previousSecret?: string
  isCloud: boolean
  /** Cloud: free-mail domains refused at registration besides the packaged lists (lower case). */
  freeMailExtra: string[]
  /**
   * Who may register a new organisation: anyone (`open`, the cloud's default), nobody once the
   * first organisation exists (`first-only`, the self-hosted default), or nobody (`closed`).
   * People join an existing organisation by invitation or single sign-on.
   */
  registration: 'open' | 'first-only' | 'closed'
  /** Read the client address from X-Forwarded-For (only behind a proxy that sets it). */
  trustProxy: boolean
  smtp?: { url?: string; host?: string; port?: number; user?: string; password?: string }
  mailFrom: string
  logLevel: RawConfig['LOG_LEVEL']
  /** Requests per minute one API key may make to the OpenAI-compatible API (/v1). */
  apiRateLimitPerMinute: number
  /** How long audit log entries are kept (KONTOR_AUDIT_RETENTION_DAYS); older ones are deleted daily. */
  auditRetentionDays: number
  billing: {
    /** Price per seat and month in cents; billed yearly by invoice. */
    pricePerSeatMonthlyCents: number
    currency: string
    trialMessages: number
    webhook?: { url: string; secret: string }
  }
  /**
   * Platform credentials; a provider is available when its key (Ollama: its URL) is set. `demo`
   * is never read from the environment: `npm run demo` sets it for the model it serves.
   */
  providers: Partial<Record<'openai' | 'anthropic' | 'mistral' | 'ollama' | 'demo', { apiKey?: string; baseUrl?: string }>>
  /** S3-compatible object storage for uploaded files; without it the Bun entry uses KONTOR_DATA_DIR/files. */
  s3?: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string; region: string }
  /** A rerank endpoint (Cohere's `/rerank` request and answer, which vLLM, Jina, Infinity and others speak) that orders the passages source_query found; without it, reciprocal rank fusion alone. */
  rerank?: { url: string; model?: string; apiKey?: string }
  /** Web search backends for the internet_search tool; the tool is offered when one is set. */
  search: { searxng?: { url: string }; brave?: { apiKey: string; baseUrl: string }; tavily?: { apiKey: string; baseUrl: string } }
  /** Internal host names, addresses and CIDR ranges (lower case) the server may reach all the same: pages for website_content, organisations' own endpoints. */
  fetchAllowedHosts: string[]
}

export class ConfigError extends Error {}

const SECRET_NAME = /SECRET|TOKEN|PASSWORD|KEY/

/** The offending value for the error line, without secrets: a start-up error ends up in logs. */
function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return 'null'
  if (SECRET_NAME.test(name)) return `<${value.length} characters, hidden>`
  return JSON.stringify(value.replace(/\/\/([^/@:\s]*):[^/@\s]*@/, '//$1:***@'))
}

/** Parses the environment; a bad value stops the start with one line naming the variable. */
export function parseConfig(env: Record<string, string | undefined>, fallbackSecret?: string): Config {
  // `VAR=` (common in compose files and .env templates) means "not set", for every variable alike.
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== ''))
  // Parsed once: zod's compiled parser of an object (`new Function`, then the JIT) costs more than it
  // saves here (8.7–14 ms against 3.4–5.5 ms at start, a script, four runs each).
  const result = configSchema.safeParse(set, { jitless: true })
  if (!result.success) {
    const issue = result.error.issues[0]!
    const name = String(issue.path[0] ?? 'environment')
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message} (got ${shownValue(name, set[name])})`)
  }
  const c = result.data
  const secret = c.KONTOR_SECRET ?? fallbackSecret
  if (!secret) throw new ConfigError('Invalid configuration: KONTOR_SECRET is required')
  const hasSmtp = Boolean(c.SMTP_URL || c.SMTP_HOST)
  return {
    env: c.NODE_ENV,
    port: c.PORT,
    baseUrl: (c.KONTOR_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    database: { url: c.DATABASE_URL ?? `file:${c.KONTOR_DATA_DIR.replace(/\/$/, '')}/kontor.db`, authToken: c.DATABASE_AUTH_TOKEN },
    dataDir: c.KONTOR_DATA_DIR,
    secret,
    previousSecret: c.KONTOR_SECRET_PREVIOUS,
    isCloud: c.KONTOR_CLOUD,
    freeMailExtra: c.KONTOR_FREEMAIL_EXTRA,
    registration: c.KONTOR_REGISTRATION ?? (c.KONTOR_REGISTRATION_DISABLED ? 'closed' : c.KONTOR_CLOUD ? 'open' : 'first-only'),
    trustProxy: c.KONTOR_TRUST_PROXY,
    smtp: hasSmtp
      ? { url: c.SMTP_URL, host: c.SMTP_HOST, port: c.SMTP_PORT, user: c.SMTP_USER, password: c.SMTP_PASSWORD }
      : undefined,
    mailFrom: c.SMTP_FROM,
    logLevel: c.LOG_LEVEL,
    apiRateLimitPerMinute: c.KONTOR_API_RATE_LIMIT,
    auditRetentionDays: c.KONTOR_AUDIT_RETENTION_DAYS,
    billing: {
      pricePerSeatMonthlyCents: c.KONTOR_PRICE_PER_SEAT_MONTHLY,
      currency: c.KONTOR_CURRENCY,
      trialMessages: c.KONTOR_TRIAL_MESSAGES,
      // Without its own secret the webhook is signed with the instance secret.
      webhook: c.KONTOR_BILLING_WEBHOOK_URL ? { url: c.KONTOR_BILLING_WEBHOOK_URL, secret: c.KONTOR_BILLING_WEBHOOK_SECRET ?? secret } : undefined,
    },
    providers: {
      ...(c.OPENAI_API_KEY && { openai: { apiKey: c.OPENAI_API_KEY, baseUrl: c.OPENAI_BASE_URL } }),
      ...(c.ANTHROPIC_API_KEY && { anthropic: { apiKey: c.ANTHROPIC_API_KEY, baseUrl: c.ANTHROPIC_BASE_URL } }),
      ...(c.MISTRAL_API_KEY && { mistral: { apiKey: c.MISTRAL_API_KEY, baseUrl: c.MISTRAL_BASE_URL } }),
      ...(c.OLLAMA_BASE_URL && { ollama: { apiKey: c.OLLAMA_API_KEY, baseUrl: c.OLLAMA_BASE_URL } }),
    },
    s3:
      c.S3_ENDPOINT && c.S3_BUCKET && c.S3_ACCESS_KEY_ID && c.S3_SECRET_ACCESS_KEY
        ? { endpoint: c.S3_ENDPOINT, bucket: c.S3_BUCKET, accessKeyId: c.S3_ACCESS_KEY_ID, secretAccessKey: c.S3_SECRET_ACCESS_KEY, region: c.S3_REGION }
        : undefined,
    rerank: c.KONTOR_RERANK_URL ? { url: c.KONTOR_RERANK_URL, model: c.KONTOR_RERANK_MODEL, apiKey: c.KONTOR_RERANK_API_KEY } : undefined,
    search: {
      ...(c.SEARXNG_URL && { searxng: { url: c.SEARXNG_URL } }),
      ...(c.BRAVE_API_KEY && { brave: { apiKey: c.BRAVE_API_KEY, baseUrl: c.BRAVE_BASE_URL } }),
      ...(c.TAVILY_API_KEY && { tavily: { apiKey: c.TAVILY_API_KEY, baseUrl: c.TAVILY_BASE_URL } }),
    },
    fetchAllowedHosts: c.KONTOR_FETCH_ALLOWED_HOSTS,
  }
}
