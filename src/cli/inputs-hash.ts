import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Every file under `dir`, in a fixed order; none when it does not exist. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
}

/**
 * A hash of what a build is made from (web/build.ts, src/cli/bundle.ts): each file's path below
 * `root` and its contents (a missing file counts as empty), after `salt`. Contents, not times: a
 * fresh checkout of an unchanged tree keeps its build.
 */
export function filesHash(root: string, files: string[], salt = ''): string {
  const hash = createHash('sha256').update(salt)
  for (const file of files) hash.update(relative(root, file)).update('\0').update(existsSync(file) ? readFileSync(file) : '').update('\0')
  return hash.digest('hex')
}
