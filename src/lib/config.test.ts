import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { CONFIG_VARIABLES, ConfigError, configSchema, parseConfig } from './config'

const SECRET = 'a-secret-of-at-least-32-characters-0123'

/** The ConfigError a bad environment raises; fails the test when parsing succeeds. */
function configError(env: Record<string, string | undefined>, fallbackSecret?: string): ConfigError {
  try {
    parseConfig(env, fallbackSecret)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`)
}

describe('parseConfig refuses bad values, naming the variable', () => {
  test.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '3000.5' }],
    ['DATABASE_URL', { DATABASE_URL: 'postgres://x' }],
    ['KONTOR_SECRET', { KONTOR_SECRET: 'too-short' }],
    ['KONTOR_SECRET_PREVIOUS', { KONTOR_SECRET_PREVIOUS: 'too-short' }],
    ['KONTOR_FREEMAIL_EXTRA', { KONTOR_FREEMAIL_EXTRA: 'not a domain' }],
    ['SMTP_URL', { SMTP_URL: 'not-a-url' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example.com' }],
    ['SMTP_PORT', { SMTP_PORT: 'twenty-five' }],
    ['KONTOR_BASE_URL', { KONTOR_BASE_URL: 'localhost:3000' }],
    ['KONTOR_CLOUD', { KONTOR_CLOUD: 'yes' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
  ])('%s', (name, env) => {
    const error = configError({ KONTOR_SECRET: SECRET, ...env })
    expect(error.message).toStartWith(`Invalid configuration: ${name} `)
  })

  test('production needs KONTOR_SECRET, even when a development fallback exists', () => {
    for (const fallback of [undefined, SECRET]) {
      const error = configError({ NODE_ENV: 'production' }, fallback)
      expect(error.message).toContain('KONTOR_SECRET')
      expect(error.message).toContain('required in production')
    }
    expect(parseConfig({ NODE_ENV: 'production', KONTOR_SECRET: SECRET }).env).toBe('production')
  })

  test('without any secret outside production the start is refused too', () => {
    expect(configError({}).message).toBe('Invalid configuration: KONTOR_SECRET is required')
  })

  test('the line says what is expected', () => {
    expect(configError({ KONTOR_SECRET: SECRET, PORT: 'eighty' }).message).toBe('Invalid configuration: PORT must be a whole number from 1 to 65535 (got "eighty")')
    expect(configError({ KONTOR_SECRET: SECRET, KONTOR_CLOUD: 'yes' }).message).toBe('Invalid configuration: KONTOR_CLOUD must be true, false, 1 or 0 (got "yes")')
    expect(configError({ KONTOR_SECRET: SECRET, LOG_LEVEL: 'loud' }).message).toBe('Invalid configuration: LOG_LEVEL must be one of debug, info, warn, error, silent (got "loud")')
    expect(configError({ KONTOR_SECRET: SECRET, S3_BUCKET: 'files' }).message).toStartWith('Invalid configuration: S3_BUCKET needs S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY')
  })

  test('the message quotes the bad value but never a secret or a password in a URL', () => {
    expect(configError({ KONTOR_SECRET: SECRET, PORT: 'abc' }).message).toContain('(got "abc")')
    const secret = configError({ KONTOR_SECRET: 'hunter2-my-real-secret' }).message
    expect(secret).not.toContain('hunter2')
    expect(configError({ KONTOR_SECRET: SECRET, KONTOR_SECRET_PREVIOUS: 'hunter2-old' }).message).not.toContain('hunter2')
    expect(secret).toContain('KONTOR_SECRET must be at least 32 characters')
    const smtp = configError({ KONTOR_SECRET: SECRET, SMTP_URL: 'smtp://mailer:p4ssw0rd@', SMTP_PORT: 'x' }).message
    expect(smtp).not.toContain('p4ssw0rd')
  })
})

describe('parseConfig defaults', () => {
  test('an almost empty environment gets the documented defaults', () => {
    const c = parseConfig({ KONTOR_SECRET: SECRET })
    expect(c).toEqual({
      env: 'development',
      port: 3000,
      baseUrl: 'http://localhost:3000',
      database: { url: 'file:./data/kontor.db', authToken: undefined },
      dataDir: './data',
      secret: SECRET,
      previousSecret: undefined,
      isCloud: false,
      freeMailExtra: [],
      registration: 'first-only',
      trustProxy: false,
      smtp: undefined,
      mailFrom: 'Kontor <no-reply@localhost>',
      logLevel: 'info',
      apiRateLimitPerMinute: 60,
      auditRetentionDays: 400,
      billing: { pricePerSeatMonthlyCents: 1500, currency: 'EUR', trialMessages: 50, webhook: undefined },
      providers: {},
      search: {},
      fetchAllowedHosts: [],
    })
  })

  test('the development fallback secret is used when KONTOR_SECRET is unset', () => {
    expect(parseConfig({}, 'generated-fallback').secret).toBe('generated-fallback')
    expect(parseConfig({ KONTOR_SECRET: SECRET }, 'generated-fallback').secret).toBe(SECRET)
  })

  test('the database lives in KONTOR_DATA_DIR unless DATABASE_URL says otherwise', () => {
    expect(parseConfig({ KONTOR_SECRET: SECRET, KONTOR_DATA_DIR: '/var/lib/kontor/' }).database.url).toBe(
      'file:/var/lib/kontor/kontor.db',
    )
    const remote = parseConfig({ KONTOR_SECRET: SECRET, DATABASE_URL: 'libsql://db.example.com', DATABASE_AUTH_TOKEN: 'tok' })
    expect(remote.database).toEqual({ url: 'libsql://db.example.com', authToken: 'tok' })
  })

  test('the base URL follows PORT and loses a trailing slash', () => {
    expect(parseConfig({ KONTOR_SECRET: SECRET, PORT: '8080' }).baseUrl).toBe('http://localhost:8080')
    expect(parseConfig({ KONTOR_SECRET: SECRET, KONTOR_BASE_URL: 'https://kontor.example.com/' }).baseUrl).toBe(
      'https://kontor.example.com',
    )
  })

  test('a variable set to the empty string counts as unset', () => {
    const c = parseConfig({ KONTOR_SECRET: SECRET, PORT: '', SMTP_PORT: '', SMTP_URL: '', DATABASE_URL: '', KONTOR_CLOUD: '' })
    expect(c.port).toBe(3000)
    expect(c.smtp).toBeUndefined()
    expect(c.database.url).toBe('file:./data/kontor.db')
    expect(c.isCloud).toBe(false)
  })
})

describe('parseConfig flags and SMTP', () => {
  test.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('KONTOR_CLOUD=%s', (value, expected) => {
    const c = parseConfig({ KONTOR_SECRET: SECRET, KONTOR_CLOUD: value, KONTOR_REGISTRATION_DISABLED: value, KONTOR_TRUST_PROXY: value })
    expect(c.isCloud).toBe(expected)
    expect(c.registration).toBe(expected ? 'closed' : 'first-only')
    expect(c.trustProxy).toBe(expected)
  })

  test('SMTP settings come from SMTP_URL or from host and port', () => {
    expect(parseConfig({ KONTOR_SECRET: SECRET, SMTP_URL: 'smtp://mail.example.com:2525' }).smtp).toMatchObject({
      url: 'smtp://mail.example.com:2525',
    })
    const c = parseConfig({
      KONTOR_SECRET: SECRET,
      SMTP_HOST: 'mail.example.com',
      SMTP_PORT: '465',
      SMTP_USER: 'kontor',
      SMTP_PASSWORD: 'pw',
      SMTP_FROM: 'Kontor <kontor@example.com>',
    })
    expect(c.smtp).toEqual({ url: undefined, host: 'mail.example.com', port: 465, user: 'kontor', password: 'pw' })
    expect(c.mailFrom).toBe('Kontor <kontor@example.com>')
  })
})

test('flags are read case-insensitively', () => {
  const config = parseConfig({ KONTOR_SECRET: 'x'.repeat(32), KONTOR_CLOUD: 'TRUE', KONTOR_REGISTRATION_DISABLED: ' False ' })
  expect(config.isCloud).toBe(true)
  expect(config.registration).toBe('open')
})

describe('KONTOR_REGISTRATION', () => {
  test('self-hosted registers the first organisation only, the cloud anyone; KONTOR_REGISTRATION_DISABLED still closes it', () => {
    expect(parseConfig({ KONTOR_SECRET: SECRET }).registration).toBe('first-only')
    expect(parseConfig({ KONTOR_SECRET: SECRET, KONTOR_CLOUD: 'true' }).registration).toBe('open')
    expect(parseConfig({ KONTOR_SECRET: SECRET, KONTOR_REGISTRATION_DISABLED: 'true' }).registration).toBe('closed')
    expect(parseConfig({ KONTOR_SECRET: SECRET, KONTOR_CLOUD: 'true', KONTOR_REGISTRATION_DISABLED: 'true' }).registration).toBe('closed')
  })

  test.each(['open', 'first-only', 'closed'] as const)('KONTOR_REGISTRATION=%s is taken as set, in either mode', (value) => {
    expect(parseConfig({ KONTOR_SECRET: SECRET, KONTOR_REGISTRATION: value }).registration).toBe(value)
    expect(parseConfig({ KONTOR_SECRET: SECRET, KONTOR_CLOUD: 'true', KONTOR_REGISTRATION: value }).registration).toBe(value)
  })

  test('an unknown value, or one that contradicts KONTOR_REGISTRATION_DISABLED, is refused, naming the variable', () => {
    expect(() => parseConfig({ KONTOR_SECRET: SECRET, KONTOR_REGISTRATION: 'sometimes' })).toThrow(/KONTOR_REGISTRATION.*must be one of open, first-only, closed/)
    expect(() => parseConfig({ KONTOR_SECRET: SECRET, KONTOR_REGISTRATION: 'open', KONTOR_REGISTRATION_DISABLED: 'true' })).toThrow(
      /KONTOR_REGISTRATION_DISABLED.*contradicts KONTOR_REGISTRATION/,
    )
    expect(parseConfig({ KONTOR_SECRET: SECRET, KONTOR_REGISTRATION: 'closed', KONTOR_REGISTRATION_DISABLED: 'true' }).registration).toBe('closed')
  })
})

test('a provider is available when its key (Ollama: its URL) is set', () => {
  const c = parseConfig({
    KONTOR_SECRET: SECRET,
    OPENAI_API_KEY: 'sk-1',
    MISTRAL_API_KEY: 'm-1',
    MISTRAL_BASE_URL: 'http://127.0.0.1:9999/v1',
    OLLAMA_BASE_URL: 'http://127.0.0.1:11434/v1',
  })
  expect(c.providers).toEqual({
    openai: { apiKey: 'sk-1', baseUrl: undefined },
    mistral: { apiKey: 'm-1', baseUrl: 'http://127.0.0.1:9999/v1' },
    ollama: { apiKey: undefined, baseUrl: 'http://127.0.0.1:11434/v1' },
  })
  expect(() => parseConfig({ KONTOR_SECRET: SECRET, ANTHROPIC_BASE_URL: 'ftp://x' })).toThrow(/ANTHROPIC_BASE_URL/)
})

describe('the README documents the configuration', () => {
  const root = resolve(import.meta.dir, '../..')
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  /** The README's configuration table: variable → [default, example, meaning]. */
  const rows = new Map(
    [...readme.matchAll(/^\| `([A-Z0-9_]+)` \|(.*)\|$/gm)].map((m) => [m[1]!, m[2]!.split(' | ').map((cell) => cell.trim())]),
  )

  test('every variable the configuration reads has a row with its default, an example and its meaning', () => {
    for (const name of CONFIG_VARIABLES) {
      const row = rows.get(name)
      expect([name, row?.length]).toEqual([name, 3])
      expect([name, row!.every((cell) => cell.length > 0)]).toEqual([name, true])
      // A default the schema fills in is the one the README states.
      const parsed = configSchema.shape[name as keyof typeof configSchema.shape].safeParse(undefined)
      const fallback = parsed.success ? parsed.data : undefined
      if (fallback !== undefined && fallback !== '' && !Array.isArray(fallback)) expect([name, row![0]]).toEqual([name, expect.stringContaining(String(fallback))])
    }
    expect([...rows.keys()].filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([])
  })

  test('so does every other environment variable the server reads', () => {
    const reads = new Set<string>()
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !e.name.includes('.test.') ? [join(dir, e.name)] : []))
    for (const file of [...files(join(root, 'src')), ...files(join(root, 'db')), join(root, 'web/build.ts')]) {
      for (const m of readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z0-9_]+)|process\.env\[['"]([A-Z0-9_]+)['"]\]/g)) reads.add(m[1] ?? m[2]!)
    }
    expect(reads.size).toBeGreaterThan(3)
    expect([...reads].filter((name) => !readme.includes(`\`${name}\``))).toEqual([])
  })
})
