import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test'
import { makePdf } from '../../../tests/support/documents'
import { FETCH_LIMITS, fetchPublicUrl, type SafeFetchOptions } from './website-content'
import { ToolError } from './types'
import { websiteContent } from './website-content'

/** A local web server: the pages, the traps, and a log of what reached it. */
let server: ReturnType<typeof Bun.serve>
let base: string
const hits: string[] = []
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const ARTICLE = `<!doctype html><html><head><title>Kontor news</title><script>var secret = "script text"</script></head><body>
<nav><a href="/home">Home</a> <a href="/about">About</a></nav>
<article><h1>Kontor ships tools</h1>
${'<p>Chats can now search the web, read pages and draft e-mails. The model cites what it read with links. </p>'.repeat(8)}
<p>Read <a href="/docs/tools">the documentation</a> for details. <img src="/logo.png" alt="logo"></p></article>
<footer>© Kontor</footer></body></html>`

beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 30,
    async fetch(req) {
      const url = new URL(req.url)
      const path = url.pathname
      hits.push(path)
      const redirect = (location: string) => new Response(null, { status: 302, headers: { location } })
      if (path === '/article') return new Response(ARTICLE, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      if (path === '/plain') return new Response('Just plain text.\nSecond line.', { headers: { 'content-type': 'text/plain' } })
      if (path.startsWith('/html/')) return new Response(HTML_PAGES[path.slice(6)], { headers: { 'content-type': 'text/html; charset=utf-8' } })
      if (path === '/latin1') {
        const bytes = Uint8Array.from([...'<html><body><p>Grüße von Müller</p></body></html>'].map((c) => c.charCodeAt(0)))
        return new Response(bytes, { headers: { 'content-type': 'text/html; charset=iso-8859-1' } })
      }
      if (path === '/report.pdf') return new Response(makePdf([['Quarterly report'], ['Revenue grew.']]), { headers: { 'content-type': 'application/pdf' } })
      if (path === '/download') return new Response(makePdf([['Sniffed PDF']]), { headers: { 'content-type': 'application/octet-stream' } })
      if (path === '/logo.png') return new Response(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), { headers: { 'content-type': 'image/png' } })
      if (path === '/blob') return new Response(Uint8Array.from([0, 1, 2, 3, 0xff, 0xfe, 0]), { headers: { 'content-type': 'application/octet-stream' } })
      if (path === '/missing') return new Response('nope', { status: 404 })
      if (path === '/endless') {
        // Never ends: a reader that does not stop at the cap would hang here.
        const chunk = new TextEncoder().encode(`${'word '.repeat(13_107)}\n`)
        return new Response(new ReadableStream({ pull: (c) => c.enqueue(chunk) }), { headers: { 'content-type': 'text/plain' } })
      }
      if (path === '/big.pdf') {
        const pdf = makePdf([['big']])
        const padded = new Uint8Array(FETCH_LIMITS.maxBytes + 1000)
        padded.set(pdf)
        return new Response(padded, { headers: { 'content-type': 'application/pdf' } })
      }
      if (path === '/slow') {
        await sleep(1500)
        return new Response('late')
      }
      if (path === '/slow-body') {
        return new Response(
          new ReadableStream({
            async start(c) {
              c.enqueue(new TextEncoder().encode('first bytes '))
              await sleep(1500)
              c.close()
            },
          }),
          { headers: { 'content-type': 'text/plain' } },
        )
      }
      if (path === '/trickle') {
        // Slow loris: a byte every 50 ms, never ending; only a deadline for the whole fetch stops it.
        let timer: ReturnType<typeof setInterval>
        return new Response(
          new ReadableStream({
            start(c) {
              timer = setInterval(() => {
                try {
                  c.enqueue(new TextEncoder().encode('.'))
                } catch {
                  clearInterval(timer)
                }
              }, 50)
            },
            cancel: () => clearInterval(timer),
          }),
          { headers: { 'content-type': 'text/plain' } },
        )
      }
      const hop = path.match(/^\/hops\/(\d+)$/)
      if (hop) return Number(hop[1]) === 0 ? redirect('/plain') : redirect(`/hops/${Number(hop[1]) - 1}`)
      if (path === '/loop') return redirect('/loop')
      if (path === '/to-private') return redirect('http://10.0.0.5/admin')
      if (path === '/to-metadata') return redirect('http://169.254.169.254/latest/meta-data/')
      if (path === '/to-localhost') return redirect(`http://localhost:${server.port}/plain`)
      if (path === '/to-intranet') return redirect(`http://intranet.test:${server.port}/plain`)
      if (path === '/to-file') return redirect('file:///etc/passwd')
      return new Response('not here', { status: 404 })
    },
  })
  base = `http://127.0.0.1:${server.port}`
})
afterAll(() => server.stop(true))
beforeEach(() => void (hits.length = 0))

/** A resolver as the Bun entry has one, with names mapped for the tests. */
const resolveHost = async (host: string) => {
  const names: Record<string, string[]> = {
    'intranet.test': ['10.0.0.5'],
    'metadata.test': ['169.254.169.254'],
    'mixed.test': ['93.184.216.34', '127.0.0.1'],
    'v6-loopback.test': ['::1'],
    'public.test': ['93.184.216.34'],
    'www.example.com': ['93.184.216.34'],
  }
  if (!names[host]) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
  return names[host]!
}

/** Only the tests that fetch real pages allow the local server, by name, as an operator would. */
const local: SafeFetchOptions = { allowedHosts: ['127.0.0.1'], resolveHost }

/** A fetch that sends requests for public names to the local server, as if it were that host. */
const viaLocal: typeof fetch = Object.assign(
  (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input))
    return fetch(`${base}${url.pathname}${url.search}`, init)
  },
  { preconnect: fetch.preconnect },
)

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ToolError)
  return (error as ToolError).message
}
const PRIVATE = /private or internal network/

describe('what may be fetched', () => {
  test('loopback, private, link-local and metadata addresses are refused before any request', async () => {
    const port = server.port
    for (const url of [
      `${base}/plain`,
      `http://localhost:${port}/plain`,
      `http://[::1]:${port}/plain`,
      `http://[::ffff:127.0.0.1]:${port}/plain`,
      `http://2130706433:${port}/plain`, // 127.0.0.1 written as one number
      `http://0x7f.1:${port}/plain`,
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
      'http://metadata.google.internal/computeMetadata/v1/',
    ]) {
      expect(await refusal(fetchPublicUrl(url, { resolveHost }))).toMatch(PRIVATE)
    }
    expect(hits).toEqual([])
  })

  test('other schemes, credentials in the URL and things that are no URL are refused', async () => {
    expect(await refusal(fetchPublicUrl('file:///etc/passwd', local))).toBe('Only http and https addresses can be fetched.')
    expect(await refusal(fetchPublicUrl('ftp://example.com/file', local))).toBe('Only http and https addresses can be fetched.')
    expect(await refusal(fetchPublicUrl('javascript:alert(1)', local))).toBe('Only http and https addresses can be fetched.')
    expect(await refusal(fetchPublicUrl(`http://user:secret@127.0.0.1:${server.port}/plain`, local))).toMatch(/user name or password/)
    expect(await refusal(fetchPublicUrl('example.com/page', local))).toMatch(/not a valid URL/)
    expect(hits).toEqual([])
  })

  test('a name that resolves to a private address is refused (any one of its addresses is enough)', async () => {
    const calls: string[] = []
    const spy = Object.assign((input: string | URL | Request, init?: RequestInit) => (calls.push(String(input)), viaLocal(input, init)), { preconnect: fetch.preconnect })
    for (const host of ['intranet.test', 'metadata.test', 'mixed.test', 'v6-loopback.test']) {
      expect(await refusal(fetchPublicUrl(`http://${host}/plain`, { resolveHost, fetch: spy }))).toMatch(PRIVATE)
    }
    expect(await refusal(fetchPublicUrl('http://nowhere.test/', { resolveHost, fetch: spy }))).toBe('The host name nowhere.test could not be found.')
    expect(calls).toEqual([])
    // A name that resolves to public addresses only is fetched.
    const page = await fetchPublicUrl('http://public.test/plain', { resolveHost, fetch: spy })
    expect(new TextDecoder().decode(page.bytes)).toBe('Just plain text.\nSecond line.')
    // It connects to the address it checked, not to a second lookup of the name.
    expect(calls).toEqual(['http://93.184.216.34/plain'])
  })

  test('without a resolver (Workers), names that look internal are refused and others fetched', async () => {
    for (const host of ['intranet', 'nas.lan', 'printer.local', 'db.internal', 'router.home.arpa']) {
      expect(await refusal(fetchPublicUrl(`http://${host}/`, { fetch: viaLocal }))).toMatch(PRIVATE)
    }
    const page = await fetchPublicUrl('https://www.example.com/plain', { fetch: viaLocal })
    expect(page.url).toBe('https://www.example.com/plain')
    expect(hits).toEqual(['/plain'])
  })

  test('an allowed internal host is fetched; the allow-list names hosts, not the addresses they resolve to', async () => {
    expect((await fetchPublicUrl(`${base}/plain`, local)).bytes.length).toBeGreaterThan(0)
    const intranet = { resolveHost, fetch: viaLocal, allowedHosts: ['intranet.test'] }
    expect((await fetchPublicUrl('http://intranet.test/plain', intranet)).bytes.length).toBeGreaterThan(0)
    expect(await refusal(fetchPublicUrl('http://metadata.test/plain', intranet))).toMatch(PRIVATE)
  })
})

describe('redirects', () => {
  test('up to 5 are followed by hand; the sixth is refused', async () => {
    const page = await fetchPublicUrl(`${base}/hops/4`, local) // 5 redirects: 4, 3, 2, 1, 0 → /plain
    expect(page.url).toBe(`${base}/plain`)
    expect(await refusal(fetchPublicUrl(`${base}/hops/5`, local))).toMatch(/redirected more than 5 times/)
    hits.length = 0
    expect(await refusal(fetchPublicUrl(`${base}/loop`, local))).toMatch(/redirected more than 5 times/)
    expect(hits).toEqual(Array(6).fill('/loop'))
  })

  test('a redirect to a private address, a name resolving to one, or another scheme is never followed', async () => {
    expect(await refusal(fetchPublicUrl(`${base}/to-private`, local))).toMatch(PRIVATE)
    expect(await refusal(fetchPublicUrl(`${base}/to-metadata`, local))).toMatch(PRIVATE)
    expect(await refusal(fetchPublicUrl(`${base}/to-localhost`, local))).toMatch(PRIVATE)
    expect(await refusal(fetchPublicUrl(`${base}/to-intranet`, local))).toMatch(PRIVATE)
    expect(await refusal(fetchPublicUrl(`${base}/to-file`, local))).toBe('Only http and https addresses can be fetched.')
    // From a public name too: its redirect into the private network is refused.
    expect(await refusal(fetchPublicUrl('http://public.test/to-private', { resolveHost, fetch: viaLocal }))).toMatch(PRIVATE)
    expect(hits).toEqual(['/to-private', '/to-metadata', '/to-localhost', '/to-intranet', '/to-file', '/to-private'])
  })
})

describe('limits', () => {
  test('the body is read up to 2 MB and no further, even when it never ends', async () => {
    const page = await fetchPublicUrl(`${base}/endless`, local)
    expect(page.bytes.length).toBe(FETCH_LIMITS.maxBytes)
    expect(page.truncated).toBe(true)
    const read = await websiteContent(`${base}/endless`, local)
    expect(read.content).toEndWith('[The page is larger than 2 MB; only its beginning was read.]')
  })

  test('a page that answers too slowly, or stalls in its body, runs into the timeout', async () => {
    expect(await refusal(fetchPublicUrl(`${base}/slow`, { ...local, timeoutMs: 200 }))).toBe('The page did not answer within 0.2 seconds.')
    expect(await refusal(fetchPublicUrl(`${base}/slow-body`, { ...local, timeoutMs: 200 }))).toBe('The page did not answer within 0.2 seconds.')
    expect(FETCH_LIMITS.timeoutMs).toBe(5000)
  })

  test('a slow-loris page that keeps sending a byte now and then still ends at the deadline', async () => {
    expect(await refusal(fetchPublicUrl(`${base}/trickle`, { ...local, timeoutMs: 400 }))).toBe('The page did not answer within 0.4 seconds.')
    expect(await refusal(websiteContent(`${base}/trickle`, { ...local, timeoutMs: 400 }))).toBe('The page did not answer within 0.4 seconds.')
  })

  test('an abort from the chat (Stop) ends the fetch with the abort, not a tool error', async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(new DOMException('stopped', 'AbortError')), 100)
    const error = await fetchPublicUrl(`${base}/slow`, { ...local, signal: controller.signal }).catch((e: unknown) => e)
    expect(error).not.toBeInstanceOf(ToolError)
    expect((error as DOMException).name).toBe('AbortError')
  })

  test('error statuses are reported', async () => {
    expect(await refusal(fetchPublicUrl(`${base}/missing`, local))).toBe('The page answered with HTTP 404.')
  })
})

/** text/html pages a browser would show, however little markup they have. */
const HTML_PAGES: Record<string, string> = {
  'no-tags': 'Opening hours: Monday to Friday, 9 to 5.',
  fragment: '<div>First</div><div>Second</div><div>Third</div>',
  cut: `<html><body><h1>Minutes</h1><p>${'The board met. '.repeat(40)}Then it was de`,
  'no-article': `<p>${'word '.repeat(2000)}</p>`,
  empty: '',
  blank: '  \n\t ',
  'only-scripts': '<script>var tracking = 1</script><style>p { color: red }</style>',
  'only-title': '<html><head><title>Nothing here</title></head><body></body></html>',
}

describe('readable text', () => {
  test('any text/html gives its text: no tags, a fragment, a page cut off, a page without an article', async () => {
    expect((await websiteContent(`${base}/html/no-tags`, local)).content).toBe(`Source: ${base}/html/no-tags\n\nOpening hours: Monday to Friday, 9 to 5.`)
    expect((await websiteContent(`${base}/html/fragment`, local)).content).toMatch(/First\s+Second\s+Third$/)
    const cut = (await websiteContent(`${base}/html/cut`, local)).content
    expect(cut).toContain('The board met.')
    expect(cut).toEndWith('Then it was de')
    expect((await websiteContent(`${base}/html/no-article`, local)).content.match(/word/g)).toHaveLength(2000)
  })

  test('an empty page, or one with only scripts or a title, contains no readable text (never an unexpected failure)', async () => {
    for (const name of ['empty', 'blank', 'only-scripts', 'only-title']) {
      expect([name, await refusal(websiteContent(`${base}/html/${name}`, local))]).toEqual([name, 'The page was fetched but contains no readable text.'])
    }
  })

  test('HTML: the article as markdown with absolute links, without scripts, menus or images', async () => {
    const page = await websiteContent(`${base}/article`, local)
    expect(page.title).toBe('Kontor news')
    expect(page.content).toStartWith(`# Kontor news\nSource: ${base}/article\n`)
    expect(page.content).toContain('Chats can now search the web')
    expect(page.content).toContain(`[the documentation](${base}/docs/tools)`)
    expect(page.content).not.toContain('script text')
    expect(page.content).not.toContain('logo.png')
    expect(page.content).not.toContain('[About]')
  })

  test('plain text as it is; HTML in the charset its header names', async () => {
    expect((await websiteContent(`${base}/plain`, local)).content).toBe(`Source: ${base}/plain\n\nJust plain text.\nSecond line.`)
    expect((await websiteContent(`${base}/latin1`, local)).content).toContain('Grüße von Müller')
  })

  test('PDF: text per page, also when served as octet-stream', async () => {
    const pdf = await websiteContent(`${base}/report.pdf`, local)
    expect(pdf.content).toMatch(/--- Page 1 ---\nQuarterly report\s*\n\n--- Page 2 ---\nRevenue grew\./)
    expect((await websiteContent(`${base}/download`, local)).content).toContain('Sniffed PDF')
    expect(await refusal(websiteContent(`${base}/big.pdf`, local))).toBe('The PDF is larger than 2 MB and cannot be read.')
  })

  test('binary content is refused with a clear message', async () => {
    expect(await refusal(websiteContent(`${base}/logo.png`, local))).toBe(
      'The address returned image/png, which cannot be read as text. Web pages, plain text and PDF files can be read.',
    )
    expect(await refusal(websiteContent(`${base}/blob`, local))).toMatch(/^The address returned application\/octet-stream, which cannot be read as text/)
  })
})
