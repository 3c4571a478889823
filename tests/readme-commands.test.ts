/**
 * The README's commands work as written after `npm start` or `npm test`: those install bun into
 * node_modules/.bin, which `npm run` and `npx` find, but a bare `bun` or `bunx` is not on the
 * PATH. And every `npm run <script>` names a script that exists.
 */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const root = join(import.meta.dir, '..')
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const scripts = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts)

/** Every command in the README: the lines of code blocks and the inline code spans, split at `&&`, `;` and `|`. */
function commands(): string[] {
  const blocks = [...readme.matchAll(/```(?:sh|bash)?\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n'))
  const inline = [...readme.replace(/```[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!)
  return [...blocks, ...inline]
    .map((line) => line.replace(/#.*$/, ''))
    .flatMap((line) => line.split(/&&|;|\|/))
    .map((c) => c.trim().replace(/^(\w+=\S*\s+)+/, '')) // leading VAR=value assignments
    .filter(Boolean)
}

test('no command starts with a bare bun or bunx', () => {
  // A single word (`bun`, the image's user; `bun.lock`) is a name, not a command.
  expect(commands().filter((c) => /^(bun|bunx)\s/.test(c))).toEqual([])
})

test('every npm run names a script of package.json', () => {
  const named = commands().flatMap((c) => [...c.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!))
  expect(named.length).toBeGreaterThan(5)
  expect(named.filter((name) => !scripts.includes(name))).toEqual([])
})
