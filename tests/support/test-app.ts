import { createClient as createDatabaseClient, type Client } from '@libsql/client'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { createDeps } from '../../src/deps'
import { parseConfig } from '../../src/lib/config'
import type { TextRecognition } from '../../src/lib/ports'
import { createSmtpTransport } from '../../src/mail/smtp'
import { tesseractRecognition } from '../../src/ocr/tesseract'
import { createLocalFileStore } from '../../src/storage/local'
import { startSmtpSink } from './smtp-sink'
import { readSse } from './sse'
import { createTestDatabase } from './test-db'

export const BASE_URL = 'http://localhost:3000'
export const PASSWORD = 'Secret123'

/**
 * The real app on a fresh libSQL file database; with `smtp`, mail goes to a real SMTP sink. With
 * `databaseUrl` (another test app's), a second app on the same database: another server process,
 * as far as the database can tell. Scans and pictures are read by OCR as on the Bun server, unless
 * `ocr` is null (as on Workers). `client` may wrap the database client, e.g. to hold a call at a
 * chosen moment. With `localFiles`, uploaded files are kept on local disk as the Bun server keeps
 * them (`filesRoot`), in a folder that goes when the app closes.
 */
export async function createTestApp(
  opts: { env?: Record<string, string>; smtp?: boolean; databaseUrl?: string; ocr?: TextRecognition | null; client?: (client: Client) => Client; localFiles?: boolean } = {},
) {
  const db = opts.databaseUrl ? { url: opts.databaseUrl, client: createDatabaseClient({ url: opts.databaseUrl }) } : await createTestDatabase()
  const sink = opts.smtp ? await startSmtpSink() : undefined
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    KONTOR_SECRET: 'test-secret-test-secret-test-secret-0123',
    KONTOR_BASE_URL: BASE_URL,
    KONTOR_TRUST_PROXY: 'true',
    DATABASE_URL: db.url,
    ...(sink && { SMTP_URL: sink.url }),
    // Tests register several organisations on one instance, unless they test registration itself.
    ...(!opts.env?.KONTOR_REGISTRATION && !opts.env?.KONTOR_REGISTRATION_DISABLED && { KONTOR_REGISTRATION: 'open' }),
    ...opts.env,
  })
  const deps = createDeps(config, {
    client: opts.client ? opts.client(db.client) : db.client,
    mailTransport: config.smtp ? createSmtpTransport(config.smtp) : undefined,
    ocr: opts.ocr === null ? undefined : (opts.ocr ?? tesseractRecognition()),
  })
  // Beside the app's own database, or in a folder of its own for an app on another's database.
  const filesDir = opts.localFiles ? ('dir' in db ? db.dir : mkdtempSync(join(tmpdir(), 'kontor-files-'))) : undefined
  const filesRoot = filesDir ? join(filesDir, 'files') : undefined
  if (filesRoot) deps.files = createLocalFileStore(filesRoot)
  const app = createApp(deps)
  return {
    app,
    deps,
    sink,
    /** Where uploaded files are kept, with `localFiles`. */
    filesRoot,
    databaseUrl: db.url,
    /** A browser-like client that keeps its cookies. */
    client: () => createClient(app),
    /** Stops the app; a database and files it created go with it (an app given another's `databaseUrl` closes first). */
    close: async () => {
      await sink?.close()
      db.client.close()
      if ('dir' in db) rmSync(db.dir, { recursive: true, force: true })
      if (filesDir) rmSync(filesDir, { recursive: true, force: true })
    },
  }
}

export type TestResponse<T = any> = { status: number; body: T; headers: Headers }

export function createClient(app: { request: (input: string, init?: RequestInit) => Response | Promise<Response> }) {
  const cookies = new Map<string, string>()
  let ip = `10.0.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`

  /** The Cookie header a browser holding these cookies sends. */
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ')

  async function request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const init: RequestInit = {
      method,
      headers: {
        'x-forwarded-for': ip,
        // Browsers send Origin with every non-GET request; CSRF protection relies on it.
        ...(method !== 'GET' && { origin: BASE_URL }),
        ...(cookies.size && { cookie: cookieHeader() }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    }
    const res = await app.request(path, init)
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const [name, ...rest] = pair!.split('=')
      const value = rest.join('=')
      if (!value || /max-age=0/i.test(line)) cookies.delete(name!.trim())
      else cookies.set(name!.trim(), value)
    }
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {}
    return { status: res.status, body: parsed as T, headers: res.headers } satisfies TestResponse<T>
  }

  return {
    cookies,
    cookieHeader,
    setIp: (value: string) => (ip = value),
    get: <T = any>(path: string, headers?: Record<string, string>) => request<T>('GET', path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => request<T>('POST', path, body ?? {}, headers),
    put: <T = any>(path: string, body?: unknown) => request<T>('PUT', path, body ?? {}),
    patch: <T = any>(path: string, body?: unknown) => request<T>('PATCH', path, body ?? {}),
    delete: <T = any>(path: string) => request<T>('DELETE', path),
    request,
  }
}

export type TestClient = ReturnType<typeof createClient>

/** Sends a chat message as the client and reads the whole streamed reply (its SSE events). */
export async function chatThrough(app: { request: (input: string, init?: RequestInit) => Response | Promise<Response> }, client: TestClient, threadId: string, content: string) {
  const res = await app.request(`/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookieHeader(), origin: BASE_URL },
    body: JSON.stringify({ content }),
  })
  return readSse(res)
}

/** Enables the OpenAI provider and the given models for the client's organisation; the permitted models, in order. */
export async function enableOpenAiModels(client: TestClient, modelIds: string[]) {
  await client.post('/api/models/providers/permitted', { providerId: 'openai', termsAccepted: true })
  const permitted = []
  for (const modelId of modelIds) permitted.push((await client.post('/api/models/permitted', { modelId })).body)
  return permitted
}

/** Invites a colleague into the admin's organisation (no SMTP: the answer carries the link) and joins, signed in. */
export async function joinAsMember(t: { client: () => TestClient }, admin: TestClient, role: 'user' | 'admin' = 'user', name = 'Mia Member') {
  const invite = await admin.post('/api/invites', { email: `member-${crypto.randomUUID().slice(0, 8)}@acme.test`, role })
  if (invite.status !== 201) throw new Error(`invite failed: ${invite.status} ${JSON.stringify(invite.body)}`)
  const client = t.client()
  const token = new URL(invite.body.acceptUrl).searchParams.get('token')
  const res = await client.post('/api/invites/accept', { token, name, password: PASSWORD, passwordConfirmation: PASSWORD })
  if (res.status !== 201) throw new Error(`accept failed: ${res.status} ${JSON.stringify(res.body)}`)
  return { client, id: res.body.id as string, email: invite.body.email as string }
}

let counter = 0
/** Registers a new organisation with its admin through the API and returns the signed-in client. */
export async function registerOrg(
  client: TestClient,
  overrides: Partial<{ email: string; name: string; organizationName: string; password: string; locale: 'en' | 'de' }> = {},
) {
  const n = ++counter
  const body = {
    email: `admin${n}-${crypto.randomUUID().slice(0, 8)}@acme.test`,
    name: `Admin ${n}`,
    organizationName: `Acme ${n}`,
    password: PASSWORD,
    passwordConfirmation: overrides.password ?? PASSWORD,
    termsAccepted: true,
    locale: 'en' as const,
    ...overrides,
  }
  const res = await client.post('/api/auth/register', body)
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`)
  return { ...body, user: res.body.user }
}

/** Registers an organisation on an app with SMTP and confirms the admin through the mailed link. */
export async function registerConfirmedOrg(
  t: { sink?: { waitForMail: (to: string) => Promise<{ text: string }> } },
  client: TestClient,
  overrides: Parameters<typeof registerOrg>[1] = {},
) {
  const org = await registerOrg(client, overrides)
  if (!t.sink) return org
  const mail = await t.sink.waitForMail(org.email)
  const token = mail.text.match(/confirm-email\?token=([^\s]+)/)?.[1]
  if (!token) throw new Error('no confirmation link in mail')
  const res = await client.post('/api/users/confirm-email', { token: decodeURIComponent(token) })
  if (res.status !== 200) throw new Error(`confirm failed: ${res.status} ${JSON.stringify(res.body)}`)
  return org
}
