/**
 * Builds the Bun server from the checkout into one bundle: `bun src/cli/bundle.ts [--if-changed]
 * [--outdir dist/<name>]` → dist/server/main.js, which `npm start` runs (decision 0114). The bundle holds Kontor's code and
 * its dependencies, minified, split into chunks so that what loads on first use still does; the
 * dependencies with native modules or worker scripts of their own load from node_modules. With
 * `--if-changed` an unchanged checkout keeps its bundle (the contents of its inputs, not times).
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '../..')
export const SERVER_BUNDLE_DIR = join(root, 'dist/server')
/** Loaded from node_modules: native modules (libSQL, the canvas, sharp) and tesseract.js, whose worker thread starts from its own script. */
const EXTERNAL = ['libsql', '@libsql/*', '@napi-rs/canvas', 'sharp', 'tesseract.js', 'tesseract.js-core']

/** What the bundle is built from: the server's, the database's and the pages' code, the dependencies' lock, the compiler settings and this script. */
function inputsHash(): string {
  const hash = createHash('sha256')
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))
  const files = [...['src', 'web', 'db', 'drizzle'].flatMap((dir) => walk(join(root, dir))), ...['package.json', 'bun.lock', 'tsconfig.json'].map((f) => join(root, f))]
  hash.update(Bun.version)
  for (const file of files) hash.update(relative(root, file)).update('\0').update(existsSync(file) ? readFileSync(file) : '').update('\0')
  return hash.digest('hex')
}

/**
 * Builds the bundle into `outdir`, a folder of dist/: its dependencies loaded from node_modules are
 * found from there, and it finds the checkout there (or, in the Docker image, the app's folder).
 */
export async function buildServerBundle(outdir = SERVER_BUNDLE_DIR) {
  if (resolve(outdir, '..') !== join(root, 'dist')) throw new Error(`the server bundle goes into a folder of dist/, not ${outdir}`)
  // The entry loads the Reflect metadata polyfill before the passkeys' certificate reader (as in src/cli/compile.ts), then the Bun entry.
  const entryDir = `${outdir}.entry`
  mkdirSync(entryDir, { recursive: true })
  const entry = join(entryDir, 'main.ts')
  writeFileSync(entry, `import 'reflect-metadata'\nimport ${JSON.stringify(relative(entryDir, join(root, 'src/main.ts')))}\n`)
  rmSync(outdir, { recursive: true, force: true })
  try {
    const result = await Bun.build({
      entrypoints: [entry],
      outdir,
      target: 'bun',
      format: 'esm',
      minify: true,
      splitting: true,
      external: EXTERNAL,
      // The checkout, from the bundle's folder: src/server.ts finds the migrations and public files there.
      define: { KONTOR_ROOT_FROM_BUNDLE: JSON.stringify(relative(outdir, root)) },
    })
    if (!result.success) throw new AggregateError(result.logs, 'the server bundle could not be built')
  } finally {
    rmSync(entryDir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const at = process.argv.indexOf('--outdir')
  const outdir = at === -1 ? SERVER_BUNDLE_DIR : resolve(process.argv[at + 1] ?? '')
  const stamp = join(outdir, '.inputs')
  const inputs = inputsHash()
  if (process.argv.includes('--if-changed') && existsSync(join(outdir, 'main.js')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === inputs) process.exit(0)
  try {
    await buildServerBundle(outdir)
  } catch (error) {
    for (const log of error instanceof AggregateError ? error.errors : [error]) console.error(log)
    process.exit(1)
  }
  writeFileSync(stamp, inputs)
  console.log(`built ${relative(root, join(outdir, 'main.js'))}`)
}
