/**
 * What a page loads before it is interactive, counted the way a browser fetches it: the entry
 * script, the chunks the server-rendered HTML announces with modulepreload, the chunks those import
 * statically, and the stylesheets. Used by bench/pages.ts (the table in bench/RESULTS.md) and by
 * tests/page-budget.test.ts (the JavaScript budgets below), so both count alike.
 */
import { signedInWithModel } from './lib'

// A bot User-Agent (curl's, fetch's default) makes the SSR handler wait for the whole page
// before sending anything, which would hide exactly what streaming is for.
export const BROWSER = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
  'accept-language': 'en',
}

/**
 * JavaScript before interactive, gzip -9 bytes (decision 0077). TARGETS are issue #15's aim;
 * CEILINGS what the pages reach now (an open chat's since decisions 0131 and 0132), which tests/page-budget.test.ts holds them to: a change that
 * adds to a page's first scripts fails there. Lower a ceiling when a page gets smaller.
 */
export const JS_TARGETS: Record<string, number> = { '/login': 150 * 1024, '/chat': 200 * 1024 }
export const JS_CEILINGS: Record<string, number> = { '/login': 150 * 1024, '/chat': 200 * 1024, '/chats/$threadId': 280 * 1024 }

// The asset sizes need a model for the chat page; no request ever reaches this address.
export const MODEL_ENV = { OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }

type Asset = { url: string; raw: number; gzip: number; sent: string }
type AssetCache = Map<string, Promise<{ asset: Asset; imports: string[] }>>

/**
 * The scripts and stylesheets a page loads before it is interactive: the entry script, the chunks
 * announced with modulepreload (the matched routes' lazily loaded parts), the chunks those import
 * statically, and the stylesheets. Raw and gzip -9 sizes, and whether the server compressed them.
 */
export async function pageAssets(base: string, path: string, cookie: string | undefined, cache: AssetCache = new Map()) {
  const res = await fetch(base + path, { headers: { ...BROWSER, ...(cookie ? { cookie } : {}) }, redirect: 'manual' })
  if (res.status !== 200) throw new Error(`${path}: status ${res.status}`)
  const html = await res.text()
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1]
  const tags = [...html.matchAll(/<(?:script|link)\b[^>]*>/g)].map((m) => m[0])
  const scripts = tags.filter((t) => t.startsWith('<script') || /rel="modulepreload"/.test(t)).map((t) => attr(t, 'src') ?? attr(t, 'href'))
  // A stylesheet may be linked twice (the early head and the rendered head): the browser loads it once.
  const styles = [...new Set(tags.filter((t) => /rel="stylesheet"/.test(t)).map((t) => attr(t, 'href')))]
  const load = (url: string) => {
    if (!cache.has(url)) {
      cache.set(url, (async () => {
        // Ask as a browser would, to see whether the server compresses (fetch decodes for us).
        const r = await fetch(base + url, { headers: { 'accept-encoding': 'gzip, br' } })
        const body = new Uint8Array(await r.arrayBuffer())
        const text = url.endsWith('.js') ? new TextDecoder().decode(body) : ''
        // Static imports between chunks (minified: `import{a as b}from"./chunk-x.js"`, `import"./chunk-y.js"`).
        const imports = [...text.matchAll(/(?:\bimport|\bexport)\s*(?:\{[^}]*\}\s*from\s*|\*\s*as\s*\w+\s*from\s*|[\w$]+\s*from\s*)?"\.\/([^"]+\.js)"/g)].map(
          (m) => `/build/${m[1]}`,
        )
        return { asset: { url, raw: body.byteLength, gzip: Bun.gzipSync(body, { level: 9 }).byteLength, sent: r.headers.get('content-encoding') ?? 'none' }, imports }
      })())
    }
    return cache.get(url)!
  }
  const seen = new Set<string>()
  const visit = async (url: string): Promise<void> => {
    if (seen.has(url)) return
    seen.add(url)
    await Promise.all((await load(url)).imports.map(visit))
  }
  await Promise.all(scripts.filter((u): u is string => !!u?.startsWith('/build/')).map(visit))
  const js = await Promise.all([...seen].map(async (u) => (await load(u)).asset))
  const css = await Promise.all(styles.filter((u): u is string => !!u?.startsWith('/build/')).map(async (u) => (await load(u)).asset))
  const sum = (xs: Asset[], k: 'raw' | 'gzip') => xs.reduce((s, a) => s + a[k], 0)
  return {
    files: js.length, jsRaw: sum(js, 'raw'), jsGzip: sum(js, 'gzip'), cssGzip: sum(css, 'gzip'),
    sent: [...new Set([...js, ...css].map((a) => a.sent))].join(', '),
    /** Each script with its gzip -9 size, largest first (what to look at when a budget is exceeded). */
    scripts: js.map((a) => ({ url: a.url, gzip: a.gzip })).sort((a, b) => b.gzip - a.gzip),
  }
}

export type PageSizes = Awaited<ReturnType<typeof pageAssets>>

/** The pages whose assets are measured: signed out, then signed in as an admin with one model and one (empty) chat. */
export async function measurePages(base: string): Promise<Array<{ path: string } & PageSizes>> {
  const { cookie, post } = await signedInWithModel(base)
  const thread = await post('/api/threads', {})
  const cache: AssetCache = new Map()
  const pages: Array<[string, string | undefined]> = [
    ['/login', undefined], ['/register', undefined], ['/password/forgot', undefined],
    ['/chat', cookie], [`/chats/${thread.id}`, cookie], ['/prompts', cookie], ['/agents', cookie],
    ['/settings/general', cookie], ['/admin-settings/users', cookie], ['/admin-settings/models', cookie],
  ]
  const out = []
  for (const [path, c] of pages) out.push({ path: path.replace(thread.id, '$threadId'), ...(await pageAssets(base, path, c, cache)) })
  return out
}
