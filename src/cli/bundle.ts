/**
 * Builds the Bun server from the checkout into one bundle: `bun src/cli/bundle.ts [--if-changed]
 * [--outdir dist/<name>]` → dist/server/main.js, which `npm start` runs (decision 0114). The bundle
 * holds Kontor's code and its dependencies, minified, split into chunks so that what loads on
 * first use still does; the dependencies with native modules or worker scripts of their own load
 * from node_modules.
 *
 * Each build goes into a folder named by the hash of its inputs (dist/server/<hash>/), and
 * dist/server/main.js loads the newest: a server still running keeps loading its chunks from its
 * own folder while a new build is made, and the build main.js ran before stays too (a server
 * survives one further build). With `--if-changed` a build whose folder exists is not made again.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { filesHash, filesUnder } from './inputs-hash'

const root = resolve(import.meta.dir, '../..')
export const SERVER_BUNDLE_DIR = join(root, 'dist/server')
/** Loaded from node_modules: native modules (libSQL, the canvas) and tesseract.js, whose worker thread starts from its own script. */
const EXTERNAL = ['libsql', '@libsql/*', '@napi-rs/canvas', 'tesseract.js', 'tesseract.js-core']

/** What a build is made from (files of the checkout at `base`): the server's, the database's and the pages' code, the dependencies' lock and patches, the compiler settings. */
export function bundleInputs(base = root): string[] {
  return [...['src', 'web', 'db', 'drizzle', 'patches'].flatMap((dir) => filesUnder(join(base, dir))), ...['package.json', 'bun.lock', 'tsconfig.json'].map((f) => join(base, f))]
}

/** The name of a build: a hash of its inputs' paths and contents and of Bun's version. */
export const inputsHash = (base = root) => filesHash(base, bundleInputs(base), Bun.version).slice(0, 16)

/**
 * Builds into a folder of `outdir`, itself a folder of dist/ (from there the dependencies loaded
 * from node_modules are found, and the checkout, or in the Docker image the app's folder, three
 * levels up), unless `ifChanged` and the build of these inputs is there. Returns the build's
 * folder and whether it was built now.
 */
export async function buildServerBundle(outdir = SERVER_BUNDLE_DIR, ifChanged = false): Promise<{ build: string; built: boolean }> {
  if (resolve(outdir, '..') !== join(root, 'dist')) throw new Error(`the server bundle goes into a folder of dist/, not ${outdir}`)
  const hash = inputsHash()
  const build = join(outdir, hash)
  const built = !(ifChanged && existsSync(join(build, 'main.js')))
  if (built) {
    // Built aside and moved into place, so that two builds at once never share a folder.
    const work = join(outdir, `.${hash}-${process.pid}`)
    rmSync(work, { recursive: true, force: true })
    mkdirSync(work, { recursive: true })
    const entry = join(work, 'entry.ts')
    // As src/cli/compile.ts: first the runtime settings (which may replace the process), then the Reflect metadata polyfill the passkeys' certificate reader needs, then the Bun entry.
    writeFileSync(entry, ['src/runtime-settings.ts', 'reflect-metadata', 'src/main.ts'].map((m) => `import ${JSON.stringify(m.startsWith('src/') ? relative(work, join(root, m)) : m)}`).join('\n'))
    const out = join(work, 'out')
    try {
      const result = await Bun.build({
        entrypoints: [entry],
        outdir: out,
        naming: { entry: 'main.[ext]' },
        target: 'bun',
        format: 'esm',
        minify: true,
        splitting: true,
        external: EXTERNAL,
        define: {
          // React and the router in their production builds; Kontor's own code reads NODE_ENV from the environment at run time (src/lib/config.ts).
          'process.env.NODE_ENV': '"production"',
          // The checkout, from the build's folder: src/server.ts finds the migrations and public files there.
          KONTOR_ROOT_FROM_BUNDLE: JSON.stringify(relative(build, root)),
        },
      })
      if (!result.success) throw new AggregateError(result.logs, 'the server bundle could not be built')
      // The same inputs make the same build: one already there (a server may run from it) stays as it is.
      if (!existsSync(build)) renameSync(out, build)
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  }
  // The entry npm start runs loads this build; written aside and renamed, so that it is never read half-written.
  const main = join(outdir, 'main.js')
  const previous = existsSync(main) ? readFileSync(main, 'utf8').match(/\.\/([0-9a-f]{16})\/main\.js/)?.[1] : undefined
  writeFileSync(`${main}.${process.pid}`, `// The server bundle's newest build (src/cli/bundle.ts).\nawait import(${JSON.stringify(`./${hash}/main.js`)})\n`)
  renameSync(`${main}.${process.pid}`, main)
  pruneBuilds(outdir, [hash, previous])
  return { build, built }
}

/**
 * Removes the builds but this one and the one main.js ran before it (a server started then may
 * still load chunks from there), and what builds that were stopped half-way left.
 */
function pruneBuilds(outdir: string, kept: (string | undefined)[]) {
  for (const entry of readdirSync(outdir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue
    const pid = entry.name.match(/^\.[0-9a-f]{16}-(\d+)$/)?.[1]
    const stale = pid ? !running(Number(pid)) : /^[0-9a-f]{16}$/.test(entry.name) && !kept.includes(entry.name)
    if (stale) rmSync(join(outdir, entry.name), { recursive: true, force: true })
  }
}

function running(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM'
  }
}

if (import.meta.main) {
  const at = process.argv.indexOf('--outdir')
  const outdir = at === -1 ? SERVER_BUNDLE_DIR : resolve(process.argv[at + 1] ?? '')
  try {
    const { build, built } = await buildServerBundle(outdir, process.argv.includes('--if-changed'))
    if (built) console.log(`built ${relative(root, build)}, run by ${relative(root, join(outdir, 'main.js'))}`)
  } catch (error) {
    for (const log of error instanceof AggregateError ? error.errors : [error]) console.error(log)
    process.exit(1)
  }
}
