import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The build the e2e server serves (src/server.ts reads the same place). */
export const buildDir = process.env.WEB_BUILD_DIR ?? fileURLToPath(new URL('../../../public/build', import.meta.url))

/** The chunks whose code holds `text` (a test id, a class only one module uses), by file name. */
export const chunksHolding = (text: string) =>
  readdirSync(buildDir).filter((name) => /^chunk-\w+\.js$/.test(name) && readFileSync(join(buildDir, name), 'utf8').includes(text))
