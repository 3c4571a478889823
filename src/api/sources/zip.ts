import { Inflate, inflateSync, unzipSync } from 'fflate'
import { AppError } from '../../lib/errors'

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

/** Largest part of an Office document (DOCX, PPTX, XLSX) once unpacked, and all the parts read together; most entries of one archive. */
export const MAX_ZIP_PART_BYTES = 50 * 1024 * 1024
export const MAX_ZIP_TOTAL_BYTES = 100 * 1024 * 1024
export const MAX_ZIP_ENTRIES = 10_000

/**
 * The guard every Office document passes before anything reads it (zip bombs): at most 10,000
 * entries; the parts that will be read (all but `skip`, e.g. images) each under 50 MB and together
 * under 100 MB as declared, and each really inflating to no more than it declares. A damaged
 * archive is `SOURCE_UNREADABLE`, one over a cap `SOURCE_TOO_LARGE`.
 */
export function guardZip(bytes: Uint8Array, skip: (name: string) => boolean = () => false): ZipEntry[] {
  try {
    const entries = readCentralDirectory(bytes)
    if (entries.length > MAX_ZIP_ENTRIES) throw new AppError('SOURCE_TOO_LARGE')
    const read = entries.filter((e) => !e.name.endsWith('/') && !skip(e.name))
    if (read.some((e) => e.size > MAX_ZIP_PART_BYTES) || read.reduce((n, e) => n + e.size, 0) > MAX_ZIP_TOTAL_BYTES) throw new AppError('SOURCE_TOO_LARGE')
    for (const entry of read) checkEntrySize(bytes, entry)
    return read
  } catch (error) {
    if (error instanceof ZipError) throw new AppError(/beyond its declared size/.test(error.message) ? 'SOURCE_TOO_LARGE' : 'SOURCE_UNREADABLE')
    throw error
  }
}

/** The text of one entry that {@link guardZip} returned (so its size is known to be true). */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry): string {
  const at = entry.localOffset
  const start = at + 30 + u16(bytes, at + 26) + u16(bytes, at + 28)
  const data = bytes.subarray(start, start + entry.compressedSize)
  try {
    return new TextDecoder().decode(entry.method === 0 ? data : inflateSync(data, { out: new Uint8Array(entry.size) }))
  } catch {
    throw new AppError('SOURCE_UNREADABLE')
  }
}

/**
 * The text of the named entries of an archive that passed {@link guardZip} (absent names are left
 * out); XML parts are UTF-8.
 */
export function readZipText(bytes: Uint8Array, names: (name: string) => boolean): Map<string, string> {
  const decoder = new TextDecoder()
  try {
    const files = unzipSync(bytes, { filter: (file) => names(file.name) })
    return new Map(Object.entries(files).map(([name, data]) => [name, decoder.decode(data)]))
  } catch {
    throw new AppError('SOURCE_UNREADABLE')
  }
}
