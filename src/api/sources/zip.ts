import { Inflate } from 'fflate'

export type ZipEntry = { name: string; method: number; compressedSize: number; size: number; localOffset: number }

export class ZipError extends Error {}

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8)
const u32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0

/**
 * The entries of a zip file as its central directory declares them, read without extracting
 * anything. ZIP64 archives are refused: no document Kontor accepts needs one.
 */
export function readCentralDirectory(bytes: Uint8Array): ZipEntry[] {
  // The end-of-central-directory record sits in the last 22 bytes plus a comment of at most 64 KB.
  let eocd = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(bytes, at) === 0x06054b50) {
      eocd = at
      break
    }
  }
  if (eocd < 0) throw new ZipError('no end of central directory')
  const count = u16(bytes, eocd + 10)
  const dirSize = u32(bytes, eocd + 12)
  const dirOffset = u32(bytes, eocd + 16)
  if (count === 0xffff || dirOffset === 0xffffffff) throw new ZipError('zip64 is not supported')
  if (dirOffset + dirSize > eocd) throw new ZipError('central directory out of range')
  const entries: ZipEntry[] = []
  const decoder = new TextDecoder()
  let at = dirOffset
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || u32(bytes, at) !== 0x02014b50) throw new ZipError('bad central directory entry')
    const nameLength = u16(bytes, at + 28)
    const entry = {
      method: u16(bytes, at + 10),
      compressedSize: u32(bytes, at + 20),
      size: u32(bytes, at + 24),
      localOffset: u32(bytes, at + 42),
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    }
    if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff) throw new ZipError('zip64 is not supported')
    entries.push(entry)
    at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32)
  }
  return entries
}

/**
 * Inflates an entry only to count its bytes, and fails as soon as it yields more than its
 * declared size: a zip can lie in its directory, and a bomb must not be believed by mammoth.
 */
export function checkEntrySize(bytes: Uint8Array, entry: ZipEntry) {
  const at = entry.localOffset
  if (at + 30 > bytes.length || u32(bytes, at) !== 0x04034b50) throw new ZipError(`bad local header for ${entry.name}`)
  const start = at + 30 + u16(bytes, at + 26) + u16(bytes, at + 28)
  const data = bytes.subarray(start, start + entry.compressedSize)
  if (data.length !== entry.compressedSize) throw new ZipError(`truncated entry ${entry.name}`)
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw new ZipError(`stored entry ${entry.name} has a wrong size`)
    return
  }
  if (entry.method !== 8) throw new ZipError(`unsupported compression ${entry.method}`)
  let produced = 0
  const inflate = new Inflate((chunk) => {
    produced += chunk.length
    if (produced > entry.size) throw new ZipError(`${entry.name} inflates beyond its declared size`)
  })
  // Small input slices bound what one step can expand to (deflate's ratio is at most ~1:1032).
  const SLICE = 4096
  for (let i = 0; i < data.length; i += SLICE) inflate.push(data.subarray(i, i + SLICE), i + SLICE >= data.length)
  if (data.length === 0) inflate.push(new Uint8Array(0), true)
}
