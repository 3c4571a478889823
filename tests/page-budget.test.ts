/**
 * The JavaScript that /login, /chat and an open chat load before they are interactive stays within its ceiling
 * (bench/page-assets.ts: JS_CEILINGS), counted as bench/pages.ts counts it: a fresh build, a real
 * server, the entry and the chunks each page's HTML announces and what they import, gzip -9.
 * A size check, not a timing one.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { signedInWithModel, startKontor } from '../bench/lib'
import { JS_CEILINGS, MODEL_ENV, pageAssets } from '../bench/page-assets'
import { freePort } from './support/ports'

const port = freePort()
let kontor: Awaited<ReturnType<typeof startKontor>>

beforeAll(async () => {
  kontor = await startKontor({ port, env: MODEL_ENV, stdout: 'ignore' })
}, 120_000)

afterAll(async () => {
  await kontor?.stop()
  rmSync(`/tmp/kontor-bench-build-${port}`, { recursive: true, force: true })
})

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

test('/login, /chat and an open chat load no more JavaScript before they are interactive than their ceilings', async () => {
  const { cookie, post } = await signedInWithModel(kontor.base)
  const thread = await post('/api/threads', {})
  for (const [path, address, cookieFor] of [['/login', '/login', undefined], ['/chat', '/chat', cookie], ['/chats/$threadId', `/chats/${thread.id}`, cookie]] as const) {
    const page = await pageAssets(kontor.base, address, cookieFor)
    // On failure, the largest scripts say where the bytes went.
    const largest = page.scripts.slice(0, 5).map((s) => `${s.url} ${kb(s.gzip)}`)
    const within = page.jsGzip <= JS_CEILINGS[path]!
    expect({ path, js: within ? 'within' : `${kb(page.jsGzip)} > ${kb(JS_CEILINGS[path]!)}`, largest: within ? [] : largest }).toEqual({ path, js: 'within', largest: [] })
  }
}, 60_000)
