import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { checkKey, toBytes, type FileStore } from './file-store'

/** Files on local disk below `root` (Bun and Node only; wired by the Bun entry). */
export function createLocalFileStore(root: string): FileStore {
  const base = resolve(root)
  const pathOf = (key: string) => join(base, checkKey(key))
  return {
    async put(key, data) {
      const path = pathOf(key)
      await mkdir(dirname(path), { recursive: true })
      // Write beside it and rename: a reader never sees half a file, a crash leaves only a temp file.
      const temp = `${path}.${crypto.randomUUID()}.tmp`
      try {
        await writeFile(temp, await toBytes(data))
        await rename(temp, path)
      } catch (error) {
        await rm(temp, { force: true })
        throw error
      }
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true })
    },
  }
}
