/**
 * The layout rules of README "Layout" and docs/decisions/0028-layout-rules.md, read from the
 * imports of every source file (type-only imports count: they couple the files all the same).
 */
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

const root = resolve(import.meta.dir, '..')

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.(test|spec|e2e)\.tsx?$/.test(f))
    .map((f) => join(dir, f).split(sep).join('/'))
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

/** The project files a file imports, as paths from the root (packages are left out). */
export function importsOf(file: string, code = readFileSync(join(root, file), 'utf8')): string[] {
  const found: string[] = []
  for (const match of code.matchAll(SPECIFIER)) {
    const spec = match[1] ?? match[2]!
    if (!spec.startsWith('.')) continue
    const base = resolve(root, dirname(file), spec)
    const hit = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((c) => {
      try {
        return statSync(c).isFile()
      } catch {
        return false
      }
    })
    found.push(relative(root, hit ?? base).split(sep).join('/'))
  }
  return found
}

const domainOf = (path: string) => path.match(/^src\/api\/([^/]+)\//)?.[1]
const featureOf = (path: string) => path.match(/^web\/features\/([^/]+)\//)?.[1]

/** Files another domain may import: its zod contract and the lookups it offers. */
const OPEN_DOMAIN_FILES = /^src\/api\/[^/]+\/(schema|access)\.ts$/

type Graph = Map<string, string[]>
const graphOf = (files: string[]): Graph => new Map(files.map((f) => [f, importsOf(f)]))

function serverViolations(graph: Graph) {
  const problems: string[] = []
  const edges = new Set<string>()
  for (const [file, targets] of graph) {
    const from = domainOf(file)
    for (const target of targets) {
      const to = domainOf(target)
      if (file.startsWith('src/lib/') && /^src\/(api|auth|mail|storage|ocr|ai|ssr|tools)\//.test(target))
        problems.push(`${file} imports ${target}: src/lib is the floor`)
      if (file.startsWith('src/ai/') && /^src\/(api|auth|mail|storage)\//.test(target))
        problems.push(`${file} imports ${target}: providers and tools get what they need in their context`)
      if (!from || !to || from === to) continue
      edges.add(`${from}>${to}`)
      if (!OPEN_DOMAIN_FILES.test(target)) problems.push(`${file} imports ${target}: another domain's schema.ts or access.ts only`)
      if (file.endsWith('/access.ts') && !target.endsWith('/access.ts') && !target.endsWith('/schema.ts'))
        problems.push(`${file} imports ${target}: an access.ts uses other domains' access.ts and schema.ts only`)
    }
  }
  for (const edge of edges) {
    const [a, b] = edge.split('>')
    if (a! < b! && edges.has(`${b}>${a}`)) problems.push(`domains ${a} and ${b} import each other`)
  }
  return problems
}

function webViolations(graph: Graph) {
  const problems: string[] = []
  for (const [file, targets] of graph) {
    const from = featureOf(file)
    if (!from) continue
    for (const target of targets) {
      const to = featureOf(target)
      if (to && to !== from) problems.push(`${file} imports ${target}`)
      if (target.startsWith('web/routes/')) problems.push(`${file} imports ${target}: routes compose features, not the reverse`)
      // limits.ts: a domain's limits without zod, so that a page need not load zod for a number (decision 0043);
      // src/api/chat/tool-data.ts: the chat's stored tool data in zod/mini, so that an open chat need not load zod's full build (decision 0131).
      if (target.startsWith('src/') && !/^src\/api\/[^/]+\/(schema|events|limits)\.ts$/.test(target) && target !== 'src/api/chat/tool-data.ts' && !target.startsWith('src/lib/errors'))
        problems.push(`${file} imports ${target}: the web reads the server's schema files only`)
    }
  }
  return problems
}

/** Import loops between files, each as the path around it. */
function loops(graph: Graph) {
  const found: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return
    if (state.get(file) === 'open') {
      found.push([...path.slice(path.indexOf(file)), file].join(' → '))
      return
    }
    state.set(file, 'open')
    for (const target of graph.get(file) ?? []) visit(target, [...path, file])
    state.set(file, 'done')
  }
  for (const file of graph.keys()) visit(file, [])
  return found
}

describe('the check itself', () => {
  test('reads value, type, re-export and dynamic imports', () => {
    const code = "import { a } from './access'\nimport type { B } from '../threads/schema'\nexport { c } from './x'\nconst d = import('../models/service')"
    expect(importsOf('src/api/sources/example.ts', code)).toEqual([
      'src/api/sources/access.ts',
      'src/api/threads/schema.ts',
      'src/api/sources/x',
      'src/api/models/service.ts',
    ])
  })

  test('notices a service imported across domains, two domains importing each other, src/lib reaching up and a feature importing another', () => {
    const graph: Graph = new Map([
      ['src/api/chat/send.ts', ['src/api/threads/service.ts']],
      ['src/api/threads/service.ts', ['src/api/sources/access.ts']],
      ['src/api/sources/access.ts', ['src/api/threads/schema.ts']],
      ['src/lib/route.ts', ['src/auth/session.ts']],
      ['src/ai/tools/source-query.ts', ['src/api/sources/retrieve.ts']],
    ])
    expect(serverViolations(graph)).toEqual([
      "src/api/chat/send.ts imports src/api/threads/service.ts: another domain's schema.ts or access.ts only",
      'src/lib/route.ts imports src/auth/session.ts: src/lib is the floor',
      'src/ai/tools/source-query.ts imports src/api/sources/retrieve.ts: providers and tools get what they need in their context',
      'domains sources and threads import each other',
    ])
    expect(loops(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']]]))).toEqual(['a.ts → b.ts → c.ts → a.ts'])
    expect(webViolations(new Map([['web/features/chat/components/a.tsx', ['web/features/sources/hooks/b.ts', 'web/lib/c.ts']]]))).toEqual([
      'web/features/chat/components/a.tsx imports web/features/sources/hooks/b.ts',
    ])
  })
})

describe('server layout', () => {
  test("a domain imports another domain's schema.ts or access.ts only, no two domains import each other, src/lib and src/ai import no domain", () => {
    expect(serverViolations(graphOf(filesUnder('src')))).toEqual([])
  })
})

describe('web layout', () => {
  test('a feature imports web/components, web/lib, the server schema files and itself, never another feature', () => {
    expect(webViolations(graphOf(filesUnder('web')))).toEqual([])
  })

  test('sonner is imported by web/components/toaster.tsx only, which loads it once the page is interactive', () => {
    const importers = filesUnder('web').filter((file) => /from 'sonner'|import\('sonner'\)/.test(readFileSync(join(root, file), 'utf8')))
    expect(importers).toEqual(['web/components/toaster.tsx'])
  })
})

describe('files', () => {
  test('no file imports itself through others', () => {
    expect(loops(graphOf([...filesUnder('src'), ...filesUnder('web'), ...filesUnder('db')]))).toEqual([])
  })
})
