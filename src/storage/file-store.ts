import { AppError } from '../lib/errors'
import type { FileData, FileStore } from '../lib/ports'

export type { FileData, FileStore }

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/

/** Refuses keys that could leave the store's root (`..`, absolute paths, odd characters). */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.length > 512) throw new Error(`invalid file key: ${key}`)
  return key
}

/** Reads a stream (or takes bytes) into one buffer. */
export async function toBytes(data: FileData): Promise<Uint8Array> {
  if (data instanceof Uint8Array) return data
  const parts: Uint8Array[] = []
  let size = 0
  const reader = data.getReader()
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    parts.push(r.value)
    size += r.value.byteLength
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    bytes.set(part, at)
    at += part.byteLength
  }
  return bytes
}

/**
 * The store of an entry that has none (Workers without S3 settings): nothing can be stored, so
 * nothing needs removing either.
 */
export const noFileStore: FileStore = {
  put: async () => {
    throw new AppError('SERVICE_UNAVAILABLE', { message: 'No file storage is configured (set S3_ENDPOINT and S3_BUCKET).' })
  },
  get: async () => null,
  delete: async () => {},
}
