import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export type DemoAccount = { email: string; password: string }
export type RunningDemo = { url: string; admin: DemoAccount; member: DemoAccount; output: () => string; stop: () => Promise<void> }

const ROOT = resolve(import.meta.dirname, '../../..')

/**
 * A fresh clone of this repository's committed HEAD (what a new user gets), without
 * node_modules or a build: `npm run demo` has to install and build everything itself.
 */
export function freshClone(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kontor-clone-'))
  execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${ROOT}`, dir])
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * Runs `npm run demo` in `dir` with a bare environment (nothing of the test run's settings) and
 * waits for it to print the sign-in details. `env` adds variables, `args` go to the demo.
 */
export async function runDemo(dir: string, port: number, opts: { env?: Record<string, string>; args?: string[] } = {}): Promise<RunningDemo> {
  const proc: ChildProcess = spawn('npm', ['run', 'demo', '--', ...(opts.args ?? [])], {
    cwd: dir,
    detached: true, // its own process group: npm, the shell and bun stop together
    env: { PATH: process.env.PATH!, HOME: process.env.HOME!, TMPDIR: process.env.TMPDIR ?? '/tmp', PORT: String(port), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  proc.stdout!.on('data', (d) => (output += d))
  proc.stderr!.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((done) => proc.on('exit', done))
  const account = (role: string) => {
    const match = output.match(new RegExp(`${role}\\s+(\\S+@\\S+)\\s+password (\\S+)`))
    return match ? { email: match[1]!, password: match[2]! } : undefined
  }
  const started = await Promise.race([
    new Promise<boolean>((done) => {
      const check = () => (account('Member') ? done(true) : undefined)
      proc.stdout!.on('data', check)
    }),
    exited.then(() => false),
  ])
  const stop = async () => {
    if (proc.exitCode === null) process.kill(-proc.pid!, 'SIGTERM')
    await exited
  }
  if (!started) throw new Error(`npm run demo ended before it printed the sign-in details:\n${output}`)
  return { url: output.match(/Kontor demo is running: (\S+)/)![1]!, admin: account('Admin')!, member: account('Member')!, output: () => output, stop }
}
