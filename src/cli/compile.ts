/**
 * Builds Kontor as one executable: `bun src/cli/compile.ts` → dist/kontor.
 * The binary embeds the web assets, the SQL migrations and libSQL's native module; at start it
 * unpacks the migrations into a temporary directory, hands the web assets to the static file
 * handler (src/static-files.ts serves them from inside the binary) and runs the normal Bun entry.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '../..')
const dist = join(root, 'dist')
const buildDir = join(dist, 'web')
mkdirSync(dist, { recursive: true })

const web = Bun.spawnSync([process.execPath, 'web/build.ts'], { cwd: root, env: { ...process.env, WEB_BUILD_DIR: buildDir }, stdout: 'inherit', stderr: 'inherit' })
if (web.exitCode !== 0) process.exit(1)

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
// Migrations are embedded from a copy: the app also imports drizzle/meta/_journal.json as JSON,
// and one path cannot be both a JSON module and an embedded file.
const migrations = join(dist, 'migrations')
rmSync(migrations, { recursive: true, force: true })
// drizzle-kit's snapshots of the schema (2.7 MB) only serve it to write the next migration.
cpSync(join(root, 'drizzle'), migrations, { recursive: true, filter: (path) => !path.endsWith('_snapshot.json') })
// The migrations are unpacked at start (the migrator reads a directory; they are few); the web
// assets and public files (some 500) are served from inside the binary (src/static-files.ts):
// unpacking them took most of the binary's start.
const unpacked = files(migrations).map((f) => ({ file: f, to: `drizzle/${relative(migrations, f)}` }))
const served = [
  ...files(buildDir).filter((f) => !f.endsWith('.map')).map((f) => ({ file: f, to: `build/${relative(buildDir, f)}` })),
  ...files(join(root, 'public')).filter((f) => !f.includes('/build/')).map((f) => ({ file: f, to: `public/${relative(join(root, 'public'), f)}` })),
]
const embedded = [...unpacked, ...served]

/** The script of tesseract.js's worker thread (src/ocr/tesseract.ts). */
const OCR_WORKER = 'node_modules/tesseract.js/src/worker-script/node/index.js'

// The generated entry imports every file as an embedded file and unpacks them before starting.
const entry = join(dist, 'entry.ts')
writeFileSync(
  entry,
  [
    // First of all, as in src/main.ts: the process may replace itself with its runtime settings (decisions 0087, 0117 and 0129).
    "import '../src/runtime-settings.ts'",
    // The passkey plugin's certificate reader (@peculiar/x509, through tsyringe) needs the Reflect metadata polyfill before it loads.
    "import 'reflect-metadata'",
    "import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'",
    "import { tmpdir } from 'node:os'",
    "import { dirname, join } from 'node:path'",
    "import { useEmbeddedFiles } from '../src/static-files.ts'",
    ...embedded.map((e, i) => `import f${i} from ${JSON.stringify(relative(dist, e.file).startsWith('.') ? relative(dist, e.file) : `./${relative(dist, e.file)}`)} with { type: 'file' }`),
    `const unpacked: Array<[string, string]> = [${unpacked.map((e, i) => `[f${i}, ${JSON.stringify(e.to)}]`).join(', ')}]`,
    `useEmbeddedFiles(new Map([${served.map((e, i) => `[${JSON.stringify(e.to)}, f${unpacked.length + i}]`).join(', ')}]))`,
    "const dir = mkdtempSync(join(tmpdir(), 'kontor-'))",
    "process.on('exit', () => rmSync(dir, { recursive: true, force: true }))",
    'for (const [from, to] of unpacked) {',
    '  mkdirSync(dirname(join(dir, to)), { recursive: true })',
    '  writeFileSync(join(dir, to), new Uint8Array(await Bun.file(from).arrayBuffer()))',
    '}',
    "process.env.KONTOR_MIGRATIONS_DIR = join(dir, 'drizzle')",
    // tesseract.js starts its worker thread from a file: the one built into the binary below.
    `process.env.KONTOR_OCR_WORKER = ${JSON.stringify(`./${OCR_WORKER}`)}`,
    "await import('../src/main.ts')",
  ].join('\n'),
)

const result = await Bun.build({
  // The OCR worker thread's script is an entry of its own, so that the binary holds it as a file.
  entrypoints: [entry, join(root, OCR_WORKER)],
  compile: { outfile: join(dist, 'kontor') },
  minify: true,
  // Compiled to bytecode at build time: the start runs it without parsing the bundle (decision 0083).
  bytecode: true,
  // Code loaded on first use (sign-in, SSO, SDKs, document readers) stays in chunks of its own,
  // loaded and compiled when first imported instead of with the rest at start (decision 0092).
  splitting: true,
  format: 'esm',
  plugins: [
    {
      // libsql picks its native module with a computed require; make it static so bun embeds it.
      name: 'libsql-native',
      setup(build) {
        build.onLoad({ filter: /node_modules\/libsql\/(index|promise)\.js$/ }, async (args) => {
          const source = await Bun.file(args.path).text()
          return { contents: source.replace('require(`@libsql/${target}`)', "require('@libsql/linux-x64-gnu/index.node')"), loader: 'js' }
        })
      },
    },
    {
      // tesseract.js's engine reads its WebAssembly from a file beside its script, which the binary
      // does not have: it takes the builds that carry the WebAssembly inside the script instead,
      // and only those of the LSTM engine, the one Kontor uses (src/ocr/tesseract.ts).
      name: 'tesseract-core-inline',
      setup(build) {
        build.onLoad({ filter: /node_modules\/tesseract\.js\/src\/worker-script\/node\/getCore\.js$/ }, async (args) => {
          const source = await Bun.file(args.path).text()
          const contents = source.replace(/require\('tesseract\.js-core\/tesseract-core(-simd|-relaxedsimd)?(-lstm)?'\)/g, "require('tesseract.js-core/tesseract-core$1-lstm.wasm.js')")
          if (contents === source) throw new Error('tesseract.js no longer loads its engine as compile.ts expects')
          return { contents, loader: 'js' }
        })
      },
    },
  ],
})
rmSync(entry)
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}
console.log(`built ${relative(root, join(dist, 'kontor'))}`)
