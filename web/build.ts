/**
 * Builds the browser assets into public/build: the client bundle (Bun.build, split into the
 * entry and per-route chunks) and the Tailwind stylesheet, both with content hashes, plus
 * manifest.json for the server: the entry, the stylesheet and, per route, the chunks that the
 * route's lazily loaded components need (the SSR preloads them, see src/ssr/render.tsx).
 */
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { createRouter, type AnyRoute } from '@tanstack/react-router'
import { filesHash, filesUnder } from '../src/cli/inputs-hash'
import type { RouterContext } from './router-context'

const root = resolve(import.meta.dir, '..')
// What the last build was made from; kept outside the build folder, whose files are served.
const INPUTS_FILE = join(root, 'node_modules/.cache/kontor/web-build-inputs.json')
// WEB_BUILD_DIR lets parallel checkouts or test runs build without overwriting each other.
const out = resolve(process.env.WEB_BUILD_DIR ?? join(root, 'public/build'))
// `--if-changed` (npm start, npm run demo): a build of exactly these sources is kept as it is.
const previous = JSON.parse(readIfExists(INPUTS_FILE) ?? 'null') as { out: string; hash: string; serverFiles: string[] } | null
if (process.argv.includes('--if-changed') && previous?.out === out && existsSync(join(out, 'manifest.json')) && inputsHash(previous.serverFiles) === previous.hash) {
  console.log('web bundle is up to date')
  process.exit(0)
}
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })

const started = performance.now()
const result = await Bun.build({
  entrypoints: [join(root, 'web/entry-client.tsx')],
  outdir: out,
  target: 'browser',
  minify: true,
  // Route components (web/routes/*.lazy.tsx, lazyRouteComponent) and rarely needed, heavy code
  // (the chat's markdown renderer, KaTeX) are loaded with import() on demand.
  splitting: true,
  metafile: true,
  sourcemap: 'linked',
  naming: '[name]-[hash].[ext]',
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [stringsAsJson()],
})
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}
const js = result.outputs.find((o) => o.kind === 'entry-point')!
// The entry (every page loads it) carries zod/mini only: a non-lazy route or feature file that
// imports a server schema.ts with zod's classic API would add ~95 KB to every page (decision 0043).
const entryInputs = Object.values(result.metafile!.outputs).find((o) => o.entryPoint === 'web/entry-client.tsx')!.inputs
const classicZod = Object.keys(entryInputs).filter((input) => input.includes('node_modules/zod/v4/classic/'))
if (classicZod.length) {
  const importers = Object.entries(result.metafile!.inputs)
    .filter(([input, i]) => input in entryInputs && i.imports.some((imp) => imp.path === 'node_modules/zod/index.js'))
    .map(([input]) => input)
  console.error(`the browser entry includes zod's classic API, imported by ${importers.join(', ')}; move what the page needs into a zod-free file`)
  process.exit(1)
}
const routeChunks = await chunksByRoute(result.metafile!)
const localeChunks = chunksByLanguage(result.metafile!, 'public')
const errorLocaleChunks = chunksByLanguage(result.metafile!, 'errors')
const appLocaleChunks = chunksByLanguage(result.metafile!, 'app')
const manageLocaleChunks = chunksByLanguage(result.metafile!, 'manage')
const highlighter = highlighterChunks(result.metafile!)
const afterHydration = [...chunksAfterHydration(result.metafile!), ...highlighter]

const cssTmp = join(out, 'app.tmp.css')
const tw = Bun.spawnSync(
  [process.execPath, join(root, 'node_modules/@tailwindcss/cli/dist/index.mjs'), '-i', join(root, 'web/styles/app.css'), '-o', cssTmp, '--minify'],
  { cwd: root, stderr: 'pipe' },
)
if (tw.exitCode !== 0) {
  console.error(tw.stderr.toString())
  process.exit(1)
}
const css = readFileSync(cssTmp)
rmSync(cssTmp)
const cssName = `app-${createHash('sha256').update(css).digest('hex').slice(0, 10)}.css`
writeFileSync(join(out, cssName), css)

// KaTeX's stylesheet and fonts, loaded by the math renderer only when a message contains math
// (web/features/chat/components/math-plugins.ts); versioned, since build files are cached for good.
const katexDir = join(root, 'node_modules/katex/dist')
const katexOut = join(out, `katex-${JSON.parse(readFileSync(join(katexDir, '../package.json'), 'utf8')).version}`)
mkdirSync(join(katexOut, 'fonts'), { recursive: true })
cpSync(join(katexDir, 'katex.min.css'), join(katexOut, 'katex.min.css'))
for (const font of readdirSync(join(katexDir, 'fonts')).filter((n) => n.endsWith('.woff2'))) {
  cpSync(join(katexDir, 'fonts', font), join(katexOut, 'fonts', font))
}

// uPlot's stylesheet, loaded by the usage chart (web/features/usage/components/usage-chart.tsx).
const uplotDir = join(root, 'node_modules/uplot')
const uplotCss = join(`uplot-${JSON.parse(readFileSync(join(uplotDir, 'package.json'), 'utf8')).version}`, 'uPlot.min.css')
mkdirSync(dirname(join(out, uplotCss)), { recursive: true })
cpSync(join(uplotDir, 'dist/uPlot.min.css'), join(out, uplotCss))

// Served as-is to browsers that accept them (serveStatic `precompressed`): no work per request.
for (const name of [...readdirSync(out).filter((n) => /\.(js|css)$/.test(n)), join(katexOut.slice(out.length + 1), 'katex.min.css'), uplotCss]) {
  const raw = readFileSync(join(out, name))
  writeFileSync(join(out, `${name}.gz`), gzipSync(raw, { level: 9 }))
  writeFileSync(join(out, `${name}.br`), brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }))
}

const manifest = { js: `/build/${js.path.split('/').pop()}`, css: `/build/${cssName}`, routes: routeChunks, locales: localeChunks, errorLocales: errorLocaleChunks, appLocales: appLocaleChunks, manageLocales: manageLocaleChunks, afterHydration, highlighter }
writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2))
// The server files the bundle imports (the domains' schemas and limits) count as its sources too.
const serverFiles = Object.keys(result.metafile!.inputs).filter((f) => !f.includes('node_modules') && !f.startsWith('web/'))
mkdirSync(dirname(INPUTS_FILE), { recursive: true })
writeFileSync(INPUTS_FILE, JSON.stringify({ out, hash: inputsHash(serverFiles), serverFiles }))
console.log(
  `built ${manifest.js}, ${Object.keys(routeChunks).length} lazy routes and ${manifest.css} in ${Math.round(performance.now() - started)} ms`,
)

/**
 * The strings (web/locales/<lang>/*.json) as one JSON text each, parsed when their chunk loads. Bun
 * otherwise writes a JSON module as a variable per key and an object of them: a third larger
 * (gzip), and slower to parse than JSON.parse of the same text.
 */
function stringsAsJson(): Bun.BunPlugin {
  return {
    name: 'strings-as-json',
    setup(build) {
      build.onLoad({ filter: /[\\/]web[\\/]locales[\\/]\w+[\\/][\w-]+\.json$/ }, async ({ path }) => ({
        contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(await Bun.file(path).json()))})`,
        loader: 'js',
      }))
    },
  }
}

/**
 * What the bundle is built from: every file under web/ (code, styles, locales, this script), the
 * server files it imports, the dependencies' lock and the compiler settings.
 */
function inputsHash(serverFiles: string[]): string {
  return filesHash(root, [...filesUnder(join(root, 'web')), ...serverFiles.map((f) => join(root, f)), ...['package.json', 'bun.lock', 'tsconfig.json'].map((f) => join(root, f))])
}

function readIfExists(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined
}

/** Chunks of a module loaded with import(): its own and those it imports, less the entry. */
function chunkClosure(meta: Bun.BuildMetafile) {
  const outputs = Object.entries(meta.outputs).map(([path, o]) => ({ ...o, name: path.split('/').pop()! }))
  const entry = outputs.find((o) => o.entryPoint === 'web/entry-client.tsx')!.name
  const byName = new Map(outputs.map((o) => [o.name, o]))
  const closure = (name: string, seen: Set<string>) => {
    if (name === entry || seen.has(name)) return seen
    seen.add(name)
    for (const i of byName.get(name)?.imports ?? []) if (i.kind === 'import-statement') closure(i.path.split('/').pop()!, seen)
    return seen
  }
  return (module: string, seen = new Set<string>()) => {
    const chunk = outputs.find((o) => o.entryPoint === module)
    if (!chunk) throw new Error(`no chunk for ${module}`)
    return closure(chunk.name, seen)
  }
}

/**
 * Per language, the chunks of one part of its strings (web/locales/index.ts): `public`, which every
 * page of that language preloads; `errors`, the error messages, which every page but the sign-in
 * pages preloads; `app`, which the pages under the app's layout preload too; `manage`, which the
 * settings and administration pages preload as well (each less what the parts before it hold already).
 */
function chunksByLanguage(meta: Bun.BuildMetafile, part: 'public' | 'errors' | 'app' | 'manage'): Record<string, string[]> {
  const chunksOf = chunkClosure(meta)
  const module = (lang: string, part: string) => `web/locales/${lang}/${part}.${part === 'errors' ? 'json' : 'ts'}`
  return Object.fromEntries(
    readdirSync(join(root, 'web/locales'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => {
        const own = chunksOf(module(d.name, part))
        const before = part === 'manage' ? ['public', 'errors', 'app'] : part === 'app' ? ['public', 'errors'] : part === 'errors' ? ['public'] : []
        for (const earlier of before) for (const shared of chunksOf(module(d.name, earlier))) own.delete(shared)
        return [d.name, [...own].map((name) => `/build/${name}`)]
      }),
  )
}

/**
 * The chunks that pages load once they are interactive, never before: on every page the
 * confirmation dialog (web/components/confirm-dialog.tsx) and the toasts (web/components/toaster.tsx),
 * on the sign-in page its second step (web/features/auth/components/login-form.tsx). Not preloaded.
 * (A chat's page loads the code highlighter then too: highlighterChunks, added to the manifest's list.)
 * (The sign-in pages' error messages come then too: manifest `errorLocales`.)
 */
function chunksAfterHydration(meta: Bun.BuildMetafile): string[] {
  const chunksOf = chunkClosure(meta)
  const chunks = new Set<string>()
  for (const input of ['web/components/confirm-dialog.tsx', 'web/components/toaster.tsx', 'web/features/auth/components/login-form.tsx']) {
    const lazy = (meta.inputs[input]?.imports ?? []).filter((i) => i.kind === 'dynamic-import')
    if (!lazy.length) throw new Error(`${input} loads nothing with import()`)
    for (const i of lazy) chunksOf(i.entryPoint ?? i.path, chunks)
  }
  return [...chunks].map((name) => `/build/${name}`)
}

/**
 * The code highlighter's chunks (web/features/chat/lib/highlight-code.ts) but those it shares with
 * the markdown renderer, which a chat's page preloads: a chat's page loads them once it is
 * interactive (thread-page.tsx, new-chat-page.tsx), or as a reply with code hydrates.
 */
function highlighterChunks(meta: Bun.BuildMetafile): string[] {
  const chunksOf = chunkClosure(meta)
  const renderer = chunksOf('web/features/chat/components/markdown-renderer.tsx')
  return [...chunksOf('web/features/chat/lib/highlight-code.ts')].filter((chunk) => !renderer.has(chunk)).map((name) => `/build/${name}`)
}

/**
 * For each route with lazily loaded parts (its component and the other parts it renders, not its
 * loader): the chunks they import, directly or through other
 * chunks, leaving out the entry (always loaded) and the chunks of the routes above it (matched,
 * and so preloaded, with it). Keyed by route id, as the router's SSR manifest is.
 */
async function chunksByRoute(meta: Bun.BuildMetafile): Promise<Record<string, string[]>> {
  const chunksOf = chunkClosure(meta)
  // A chat's replies need the markdown renderer as soon as the page is up: fetch it beside the route's own chunks.
  const extra: Record<string, string[]> = { 'web/routes/chat-thread.tsx': ['web/features/chat/components/markdown-renderer.tsx'] }

  // Route ids are assigned when a router is created from the tree; nothing here loads or renders.
  const { routeTree } = await import('./route-tree')
  createRouter({ routeTree, context: {} as RouterContext })
  const found = new Map<string, { route: AnyRoute; chunks: Set<string> }>()
  for (const file of readdirSync(join(root, 'web/routes')).filter((n) => /^[\w-]+\.tsx$/.test(n))) {
    const input = relative(root, join(root, 'web/routes', file))
    // A route's loader module (web/routes/*.loader.ts) is left out: the browser runs loaders on
    // navigation and preload only, never for the page the server rendered.
    const lazy = (meta.inputs[input]?.imports ?? [])
      .filter((i) => i.kind === 'dynamic-import' && !/\.loader\.ts$/.test(i.path))
      .map((i) => i.entryPoint ?? i.path)
    const chunks = new Set<string>()
    for (const module of [...lazy, ...(extra[input] ?? [])]) chunksOf(module, chunks)
    const { Route } = (await import(`./routes/${file}`)) as { Route?: AnyRoute }
    if (!Route) continue // a module that composes features for a route (app-layout.tsx) is no route itself
    found.set(Route.id, { route: Route, chunks })
  }
  const routes: Record<string, string[]> = {}
  for (const [id, { route, chunks }] of found) {
    const above = new Set<string>()
    for (let parent = route.parentRoute; parent; parent = parent.parentRoute) found.get(parent.id)?.chunks.forEach((c) => above.add(c))
    const own = [...chunks].filter((c) => !above.has(c))
    if (own.length) routes[id] = own.map((name) => `/build/${name}`)
  }
  return routes
}
