/**
 * Builds the browser assets into public/build: the client bundle (Bun.build) and the
 * Tailwind stylesheet, both with content hashes, plus manifest.json for the server.
 */
import { createHash } from 'node:crypto'
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const root = resolve(import.meta.dir, '..')
// WEB_BUILD_DIR lets parallel checkouts or test runs build without overwriting each other.
const out = resolve(process.env.WEB_BUILD_DIR ?? join(root, 'public/build'))
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })

const started = performance.now()
const result = await Bun.build({
  entrypoints: [join(root, 'web/entry-client.tsx')],
  outdir: out,
  target: 'browser',
  minify: true,
  // Rarely needed, heavy code (the chat's markdown renderer, KaTeX) is loaded with import() on demand.
  splitting: true,
  sourcemap: 'linked',
  naming: '[name]-[hash].[ext]',
  define: { 'process.env.NODE_ENV': '"production"' },
})
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}
const js = result.outputs.find((o) => o.kind === 'entry-point')!

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

// Served as-is to browsers that accept them (serveStatic `precompressed`): no work per request.
for (const name of [...readdirSync(out).filter((n) => /\.(js|css)$/.test(n)), join(katexOut.slice(out.length + 1), 'katex.min.css')]) {
  const raw = readFileSync(join(out, name))
  writeFileSync(join(out, `${name}.gz`), gzipSync(raw, { level: 9 }))
  writeFileSync(join(out, `${name}.br`), brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }))
}

const manifest = { js: `/build/${js.path.split('/').pop()}`, css: `/build/${cssName}` }
writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2))
console.log(`built ${manifest.js} and ${manifest.css} in ${Math.round(performance.now() - started)} ms`)
