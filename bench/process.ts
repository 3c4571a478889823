/**
 * The process itself: time from start to the first 200 on the health route, and the resident
 * memory once warm (after the start and one rendered /login, idle for 2 s), and for Kontor the time
 * of the first sign-up and the memory once in use (after it and a rendered /chat, idle for 2 s).
 * Five servers, in
 * rounds whose order rotates: the baseline, a bare Bun + Hono + libSQL server on a database file
 * (bench/bare-api.ts); Kontor as `npm start` runs it, the server bundle built from the checkout
 * (`bun src/cli/bundle.ts` → dist/server/main.js); Kontor from its source files (`bun src/main.ts`,
 * as `npm run dev` runs it); Kontor as the single binary (`bun src/cli/compile.ts` → dist/kontor),
 * and a copy of it written anew before each start.
 * Each start gets a fresh data directory.
 * Run: bun bench/process.ts [rounds=7]. Writes its section of bench/RESULTS.md.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { BENCH_SECRET, machine, pct, register, ROOT, writeSection } from './lib'

const rounds = Number(process.argv[2] ?? 7)
const bun = process.execPath
const buildDir = '/tmp/kontor-bench-build-process'

const built = Bun.spawnSync([bun, 'web/build.ts'], { cwd: ROOT, env: { ...process.env, WEB_BUILD_DIR: buildDir }, stdout: 'ignore', stderr: 'inherit' })
if (built.exitCode !== 0) throw new Error('web/build.ts failed')
const compiled = Bun.spawnSync([bun, 'src/cli/compile.ts'], { cwd: ROOT, stdout: 'ignore', stderr: 'inherit' })
if (compiled.exitCode !== 0) throw new Error('src/cli/compile.ts failed')
const bundleStarted = performance.now()
const bundled = Bun.spawnSync([bun, 'src/cli/bundle.ts'], { cwd: ROOT, stdout: 'ignore', stderr: 'inherit' })
if (bundled.exitCode !== 0) throw new Error('src/cli/bundle.ts failed')
const bundleSeconds = (performance.now() - bundleStarted) / 1000

// How a file's pages came into memory changes how many of them a process maps: a file just
// written (or read whole) maps about 6 MB more of the binary than one whose pages its own runs
// read from the disk (measured by hand, Linux 6.18). The bun executable the other two run from
// is in the second state; the binary is measured in both: once dropped from the page cache and
// started once unmeasured (as after a restart of the machine), and as a fresh copy each start.
const binaryPath = join(ROOT, 'dist/kontor')
// Beside the binary, on the same file system (a temporary directory may be kept in memory).
const justWritten = join(ROOT, 'dist/kontor-just-written')
process.on('exit', () => rmSync(justWritten, { force: true }))
for (const cmd of [['sync', binaryPath], ['dd', `if=${binaryPath}`, 'iflag=nocache', 'count=0', 'status=none']]) {
  if (Bun.spawnSync(cmd).exitCode !== 0) throw new Error(`${cmd.join(' ')} failed`)
}

type Variant = { name: string; cmd: string[]; health: string; warm: string; inUse?: boolean; before?: () => Promise<void> }
const variants: Variant[] = [
  { name: 'bare Bun + Hono + libSQL (baseline)', cmd: [bun, 'bench/bare-api.ts'], health: '/health', warm: '/health' },
  { name: 'Kontor from source, as npm start runs it (server bundle)', cmd: [bun, 'dist/server/main.js'], health: '/api/health', warm: '/login', inUse: true },
  { name: 'Kontor from its source files (bun src/main.ts)', cmd: [bun, 'src/main.ts'], health: '/api/health', warm: '/login', inUse: true },
  { name: 'Kontor binary', cmd: [binaryPath], health: '/api/health', warm: '/login', inUse: true },
  {
    name: 'Kontor binary, its file just written',
    cmd: [justWritten],
    health: '/api/health',
    warm: '/login',
    inUse: true,
    before: async () => {
      rmSync(justWritten, { force: true })
      await Bun.write(justWritten, Bun.file(binaryPath))
      chmodSync(justWritten, 0o755)
    },
  },
]

const rssOf = (pid: number) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]) / 1024

async function measure(v: Variant, port: number) {
  await v.before?.()
  const dir = mkdtempSync(join(tmpdir(), 'kontor-bench-process-'))
  const base = `http://127.0.0.1:${port}`
  const started = performance.now()
  const server = Bun.spawn(v.cmd, {
    cwd: ROOT,
    stdout: 'ignore',
    stderr: 'inherit',
    env: {
      ...process.env,
      PORT: String(port),
      KONTOR_DATA_DIR: dir,
      DATABASE_URL: `file:${join(dir, 'kontor.db')}`,
      KONTOR_SECRET: BENCH_SECRET,
      KONTOR_BASE_URL: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      WEB_BUILD_DIR: buildDir,
    },
  })
  try {
    let startMs = 0
    for (;;) {
      if (server.exitCode !== null) throw new Error(`${v.name} exited with ${server.exitCode}`)
      if (await fetch(`${base}${v.health}`).then((r) => r.ok, () => false)) {
        startMs = performance.now() - started
        break
      }
      if (performance.now() - started > 30_000) throw new Error(`${v.name} did not answer within 30 s`)
      await Bun.sleep(2)
    }
    const warm = await fetch(`${base}${v.warm}`)
    await warm.text()
    if (!warm.ok) throw new Error(`${v.name} ${v.warm}: ${warm.status}`)
    await Bun.sleep(2000)
    const rssMb = rssOf(server.pid)
    if (!v.inUse) return { startMs, rssMb }
    // In use: the first sign-up builds the sign-in code (better-auth and its plugins), /chat renders the chat's screen.
    const site = `http://localhost:${port}`
    const signUpStarted = performance.now()
    const cookie = await register(site)
    const signUpMs = performance.now() - signUpStarted
    const chat = await fetch(`${site}/chat`, { headers: { cookie } })
    await chat.text()
    if (!chat.ok) throw new Error(`${v.name} /chat: ${chat.status}`)
    await Bun.sleep(2000)
    return { startMs, rssMb, signUpMs, inUseMb: rssOf(server.pid) }
  } finally {
    server.kill()
    await server.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

const results = new Map<string, { startMs: number[]; rssMb: number[]; signUpMs: number[]; inUseMb: number[] }>(variants.map((v) => [v.name, { startMs: [], rssMb: [], signUpMs: [], inUseMb: [] }]))
// The binary's first start after its file left the page cache reads its pages from the disk; not measured.
await measure(variants[3]!, 4600)
const loadBefore = loadavg()[0]!
for (let round = 0; round < rounds; round++) {
  // Rotate the order, so that no variant always runs first (cold caches) or last.
  for (let i = 0; i < variants.length; i++) {
    const v = variants[(round + i) % variants.length]!
    const r = await measure(v, 4600 + i)
    results.get(v.name)!.startMs.push(r.startMs)
    results.get(v.name)!.rssMb.push(r.rssMb)
    if (r.signUpMs !== undefined) results.get(v.name)!.signUpMs.push(r.signUpMs)
    if (r.inUseMb !== undefined) results.get(v.name)!.inUseMb.push(r.inUseMb)
    console.log(`round ${round + 1}: ${v.name}: ${r.startMs.toFixed(0)} ms, ${r.rssMb.toFixed(1)} MB` + (r.inUseMb === undefined ? '' : `; sign-up ${r.signUpMs!.toFixed(0)} ms, in use ${r.inUseMb.toFixed(1)} MB`))
  }
}
const loadAfter = loadavg()[0]!

const baseline = results.get(variants[0]!.name)!
const p50 = (xs: number[]) => pct(xs, 50)
const rows = variants.map((v) => {
  const r = results.get(v.name)!
  const s = p50(r.startMs)
  const m = p50(r.rssMb)
  const inUse = r.inUseMb.length ? `${p50(r.signUpMs).toFixed(0)} ms | ${p50(r.inUseMb).toFixed(1)} MB |` : '— | — |'
  return `| ${v.name} | ${s.toFixed(0)} ms (${(s / p50(baseline.startMs)).toFixed(1)}×) | ${pct(r.startMs, 100).toFixed(0)} ms | ${m.toFixed(1)} MB (${(m / p50(baseline.rssMb)).toFixed(1)}×) | ${pct(r.rssMb, 100).toFixed(1)} MB | ${inUse}`
})
const source = results.get(variants[1]!.name)!
const files = results.get(variants[2]!.name)!
const binary = results.get(variants[3]!.name)!
const written = results.get(variants[4]!.name)!
const table = [
  `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${machine()}, load average ${loadBefore.toFixed(1)} at the start and ${loadAfter.toFixed(1)} at the end; ${rounds} rounds, order rotating.`,
  '',
  'Start = from spawning the process to the first 200 on its health route; RSS = resident memory after that and one rendered /login (the baseline: one more health request), idle for 2 s. Median (ratio to the baseline’s median), and the worst round. In use (Kontor only): the time of the first sign-up (an organisation registered), then the resident memory after it and one rendered /chat, idle for 2 s (medians).',
  '',
  '| Server | Start p50 | Start max | Warm RSS p50 | RSS max | First sign-up p50 | RSS in use p50 |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...rows,
  '',
  `**Reading.** From source, as \`npm start\` runs it, Kontor answers its first health check after ${p50(source.startMs).toFixed(0)} ms and as the binary after ${p50(binary.startMs).toFixed(0)} ms (targets: 500 and 300 ms); warm, it holds ${p50(source.rssMb).toFixed(1)} MB from source and ${p50(binary.rssMb).toFixed(1)} MB as the binary (target 70 MB), against ${p50(baseline.rssMb).toFixed(1)} MB for the bare server. In use, after a sign-up and a chat page, it holds ${p50(source.inUseMb).toFixed(0)} MB from source and ${p50(binary.inUseMb).toFixed(0)} MB as the binary. ` +
    `Since decision 0114 \`npm start\` builds the server from the checkout into one bundle (\`src/cli/bundle.ts\`: Kontor\'s code and its dependencies minified into one entry and some 370 chunks, those with native modules or worker scripts loaded from node_modules, React in its production build; built in ${bundleSeconds.toFixed(1)} s in this run, by \`npm start\` only when its inputs changed) and runs that. Run from its source files (\`bun src/main.ts\`, as \`npm run dev\` does), the same server answers after ${p50(files.startMs).toFixed(0)} ms and holds ${p50(files.rssMb).toFixed(1)} MB warm and ${p50(files.inUseMb).toFixed(0)} MB in use: Bun then transpiles and keeps each of some 820 modules apart, with its source, where each of the bundle\'s chunks holds many of them, minified. ` +
    `A copy of the binary written just before each start holds ${p50(written.rssMb).toFixed(1)} MB warm and ${p50(written.inUseMb).toFixed(0)} MB in use: how a file's pages came into memory changes how many of them a process maps. The extra pages are pages of the binary's file, which the system can drop and read again, not memory of the process's own. Measured by hand on 2026-11-29 (two starts each, alternating): with the binary's file dropped from the page cache and then read by the process's own page faults, 69.7–70.4 MB warm; read whole (\`cat\`) after the drop, 75.2–75.9 MB. In one start each (smaps), the process mapped 37.6 against 44.1 MB of the binary's file, counted as clean (Private_Clean 37.4 against 43.9 MB). Likely the kernel keeps a file written or read whole in larger blocks and maps such a block at once. The bun executable the other two run from held the same memory after its file was dropped from the page cache as before.`,
  '',
  'What the figures contain. (Before decision 0114, "from source" in what follows means \`bun src/main.ts\`, which \`npm start\` ran then.) The binary carries its code as bytecode, so its start parses nothing (decision 0083; it took about 500 ms before), keeps the code loaded on first use in chunks of its own, so that its start loads none of it (decision 0092; it held 112 MB warm before), and serves its web assets from inside itself (src/static-files.ts, decision 0081); of its embedded files it unpacks at start only the migrations, their journal and the baseline a new database begins from, not drizzle-kit\'s snapshots of the schema (2.7 MB; six starts each, alternating, on 2026-11-29: warm 79.6–80.1 against 81.5–82.3 MB). ' +
    'Every Kontor start here holds the JIT back while it starts (decision 0104): code that runs once at start is compiled less (five alternating starts each, with and without, on 2026-11-27: warm 85.6 against 88.6 MB and first 200 after 295 against 336 ms from source; 82.6 against 87.0 MB and 134 against 149 ms as the binary, medians). ' +
    'Every Kontor start includes one exec of the process by itself, which gives it a limit of 4,096 requests at once instead of Bun\'s 256 (decision 0087): about 10 ms from source, 45 ms as the binary. ' +
    'Decision 0078 keeps better-auth with its plugins, the free-mail lists and better-auth\'s cipher out of the start (`tests/start-imports.test.ts` holds the code loaded at start at about 2.9 MB). Since decision 0111 the API\'s 29 domains load each with its first request instead of at start (a warm process loads 823 modules from source instead of 934): alternating with the commit before on 2026-11-29 (seven starts each, medians), first 200 after 304 against 382 ms from source and 126 against 178 ms as the binary, warm 80.5 against 86.0 MB and 75.0 against 78.6 MB, in use 102 against 109 MB and 90 against 93 MB; the services of the background jobs still load at start. Since decision 0112 /v1, SCIM and MCP load with their first request too: alternating with the commit before on 2026-11-29 (seven starts each, medians), warm 79.4 against 81.8 MB from source and, within the spread, 70.6 against 71.0 MB as the binary (both binaries built 20 minutes before), first 200 after 298 against 364 ms from source. Since decision 0113 the page renderer loads a language\'s strings per part with the first page that needs them, not every language\'s at start: alternating with the commit before (seven starts each, medians), warm 79.1 against 81.0 MB from source and, within the spread, 69.5 against 69.8 MB as the binary. Since decision 0110, building better-auth with its plugins (at the first sign-up) loads neither SAML\'s libraries nor the passkeys\' (each loads with the request that uses it) nor better-auth\'s full build with Kysely, and the chat\'s screens import Lucide\'s icons one by one instead of its index of some 2,000: alternating with the commit before on 2026-11-29 (seven starts each, medians), the first sign-up took 369 against 628 ms from source and 264 against 298 ms as the binary, and the memory in use 106 against 131 MB from source and 93 against 112 MB as the binary. ' +
    'From source, the components import each Radix primitive from its own package (decision 0098): before, the server evaluated all of Radix at start (58 modules), which held about 3 MB more and took about 47 ms of CPU at start (a CPU profile). ' +
    'What is left of the memory over the bare server is the code loaded at start, not the first page (before decision 0111; imported one after another in a script, the API\'s route modules with their services and zod schemas added about 11 MB of anonymous memory, Drizzle\'s schema 5 MB and zod itself 4 MB, of 46 MB): on 2026-11-29 before decisions 0110 and 0111 (three starts each, idle 2 s before and after), Kontor held 79–80 MB from source and 71–72 MB as the binary before any page, and the first /login added 5–6 MB (3–4 MB of it anonymous memory, the rest pages of the executable). From source, the start holds about 41 MB of anonymous memory against the binary\'s 29 MB, likely because each of the some 930 modules (823 since decision 0111) loaded from source is transpiled and parsed at start, where the binary maps its bytecode from its file (45 MB of its resident memory are file pages, against 40 MB from source). In a heap snapshot after a full collection (from source, warm, 2026-11-29), the JavaScript heap holds 15 MB: 4.3 MB of it are the records of those modules and 2.6 MB the bytecode of the functions that ran. Measured and not adopted (three starts each, alternating, on 2026-11-29), as both left the warm memory within the spread: the ZIP, user-agent, address-range, multipart and S3 libraries loaded on first use instead of at start (85.6–86.3 MB against 84.7–86.1 MB), and leaving out React\'s second, string-rendering server build, which `react-dom/server` loads beside the streaming one (85.2–85.5 MB against 85.2–86.6 MB; alone in a script it held 2.9 MB). ' +
    'Measured by hand on 2026-11-29, on a machine slower than that of 2026-11-27 (there the bare server starts in 105–120 ms, against 70): each start of this bench also creates its database, and on a new file the 32 migrations applied one statement at a time (about 190 statements in one transaction) took 47–80 ms (a script, four new files each time), against 1–2 ms at a restart, when there is nothing to apply; in a CPU profile of a start from source (490 ms of samples) about 60 ms were those statements, and most of the rest loading and evaluating the code. Since decision 0108 a new database begins from one baseline of the schema instead (drizzle/baseline.sql: 8–16 ms in the same script); alternating with the commit before, on 2026-11-29, 20 starts each from source and 11 as the binary: first 200 after 526 against 573 ms from source (single starts spread from 395 to 750 ms on this machine) and 217 against 237 ms as the binary, warm 86.4 against 87.0 MB and 79.2 against 81.5 MB (medians). Seven runs of this bench on 2026-11-29 after that decision gave medians of 430–508 ms from source and 172–223 ms as the binary: before decision 0109, on this machine the start from source was at its target\'s edge. Since decision 0109 the page renderer (React\'s server renderer, the router, both languages\' strings) loads once the server listens, so that the health check answers before it: alternating with the commit before on 2026-11-29, first 200 after 361 against 450 ms from source (nine starts each) and 165 against 218 ms as the binary (seven each); a /login asked at once after that 200 waited for it (148 against 66 ms from source, 50 against 34 ms as the binary), one asked 400 ms later did not (from source, seven starts each: 82 against 82 ms). The warm memory here includes it, as the first /login loads it. ' +
    'Measured by hand (smaps): about 36 MB of the resident memory are the pages of Bun\'s own executable that the process touched and 5 MB libSQL\'s native library; the JavaScript heap held 16–24 MB after a full collection on 2026-11-27 (from source about a third of it module records); the JIT compilers\' code and data are about 10–13 MB before decision 0104 (the same start with the JIT off holds about 80 MB from source; with the JIT held back for good, 81 MB, which would leave the code of requests interpreted 100 times longer); the rest is anonymous memory outside the heap. A bare Bun server with Hono, libSQL, React\'s server renderer and TanStack Router rendering a small page holds about 50 MB (measured by hand).',
]
writeSection('## Process (bench/process.ts)', table.join('\n'))
console.log(table.join('\n'))
