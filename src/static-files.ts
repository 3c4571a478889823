/**
 * The web assets and public files as the server hands them out: from directories (a checkout,
 * Docker), or from inside the single binary, which carries them as embedded files
 * (src/cli/compile.ts) and serves them from there instead of unpacking them at every start.
 */
import { serveStatic as serveFromDisk } from 'hono/bun'
import { serveStatic } from 'hono/serve-static'
import type { MiddlewareHandler } from 'hono'

/** Files built into the binary, by the path they would have under the app's root: `build/…`, `public/…`. */
let embedded: Map<string, string> | undefined

/** Called by the binary's entry before the server starts; values are the embedded files' own paths. */
export function useEmbeddedFiles(files: Map<string, string>) {
  embedded = files
}

/** The contents of `build/manifest.json` (or another built file), from the binary or the build directory. */
export async function readBuiltFile(buildDir: string, name: string): Promise<string | null> {
  const file = Bun.file(embedded ? (embedded.get(`build/${name}`) ?? '') : `${buildDir}/${name}`)
  return (await file.exists()) ? file.text() : null
}

type Options = { root: string; prefix: 'build' | 'public'; rewriteRequestPath?: (path: string) => string; precompressed?: boolean; cacheControl: string }

/** Hono's static files, read from the binary when it carries them (exact paths only: nothing outside them is reachable). */
export function staticFiles(options: Options): MiddlewareHandler {
  const onFound = (_path: string, c: Parameters<MiddlewareHandler>[0]) => c.header('Cache-Control', options.cacheControl)
  const files = embedded
  if (!files) return serveFromDisk({ root: options.root, rewriteRequestPath: options.rewriteRequestPath, precompressed: options.precompressed, onFound })
  return serveStatic({
    root: options.prefix,
    join: (root, path) => `${root}/${path.replace(/^\/+/, '')}`,
    rewriteRequestPath: options.rewriteRequestPath,
    precompressed: options.precompressed,
    getContent: async (path) => {
      const file = files.get(path)
      return file ? Bun.file(file) : null
    },
    onFound,
  })
}
