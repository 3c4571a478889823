/**
 * Code the Workers entry bundles runs on workerd: apart from the entry files, it may use neither
 * `node:` modules (nor Node's built-ins by their bare names) nor `Bun.` APIs. The files are found
 * by following the project's own imports from src/worker.ts, as the bundler does.
 */
import { expect, test } from 'bun:test'
import { readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '..')
const ENTRY_FILES = new Set(['src/worker.ts'])
const transpilers = { ts: new Bun.Transpiler({ loader: 'ts' }), tsx: new Bun.Transpiler({ loader: 'tsx' }) }
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split('/')[0]!]))

/** What a file uses that workerd does not have: Node modules by import, Bun's global by reference. */
function runtimeApis(code: string, tsx: boolean) {
  const transpiler = tsx ? transpilers.tsx : transpilers.ts
  // Type-only imports and comments are gone after transpiling; what is left runs.
  const js = transpiler.transformSync(code)
  const modules = transpiler.scan(code).imports.map((i) => i.path)
  return {
    modules,
    forbidden: [
      ...modules.filter((m) => m.startsWith('node:') || m === 'bun' || m.startsWith('bun:') || NODE_BUILTINS.has(m.split('/')[0]!)),
      ...(/\bBun\s*\.|\bBun\s*\[/.test(js) ? ['Bun.'] : []),
    ],
  }
}

function resolveImport(from: string, path: string) {
  const base = resolve(dirname(from), path)
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    try {
      if (statSync(candidate).isFile()) return candidate
    } catch {}
  }
  throw new Error(`${relative(root, from)} imports ${path}, which does not resolve`)
}

test('the check itself notices node: imports, bare built-ins and Bun. calls', () => {
  expect(runtimeApis("import { readFile } from 'node:fs/promises'\nreadFile('x')", false).forbidden).toEqual(['node:fs/promises'])
  expect(runtimeApis("import path from 'path'\npath.join('a')", false).forbidden).toEqual(['path'])
  expect(runtimeApis("export const f = () => Bun.file('x')", false).forbidden).toEqual(['Bun.'])
  // A comment or a type mentioning them is no use of them.
  expect(runtimeApis("// Bun.serve and node:fs are for the Bun entry\nimport type { Server } from 'bun'\nexport let s: Server | undefined", false).forbidden).toEqual([])
})

test('nothing the Workers entry bundles uses node: or Bun. APIs outside the entry files', () => {
  const offenders: string[] = []
  const seen = new Set<string>()
  const queue = [join(root, 'src/worker.ts')]
  while (queue.length) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    if (!/\.tsx?$/.test(file)) continue // JSON (the web manifest, locales, the migration journal)
    const { modules, forbidden } = runtimeApis(readFileSync(file, 'utf8'), file.endsWith('.tsx'))
    const name = relative(root, file)
    if (!ENTRY_FILES.has(name)) offenders.push(...forbidden.map((api) => `${name}: ${api}`))
    for (const m of modules) if (m.startsWith('.')) queue.push(resolveImport(file, m))
  }
  // The walk reaches the app, its services and the SSR'd web app, not only a few files.
  for (const part of ['src/app.ts', 'src/api/chat/stream-reply.ts', 'src/storage/r2.ts', 'src/ssr/render.tsx']) expect(seen).toContain(join(root, part))
  expect(offenders).toEqual([])
})
