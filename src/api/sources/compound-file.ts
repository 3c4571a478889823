import { AppError } from '../../lib/errors'

// An Outlook item is a compound file (MS-CFB): sectors linked into chains by an allocation
// table, and a directory of entries linked as a tree. The reader follows chains and links until
// they end, so a crafted file whose chains or links form a loop would keep it busy forever, and an
// entry may claim any size. This guard walks the same structures first, counting every step.

const END = -2

/**
 * Refuses a compound file the reader must not be given: a chain of sectors or mini sectors, or the
 * directory's links, that loop or lead outside the file (`SOURCE_UNREADABLE`); streams that claim
 * more bytes than the file can hold (`SOURCE_TOO_LARGE`).
 */
export function guardCompoundFile(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const unreadable = () => new AppError('SOURCE_UNREADABLE')
  const int = (at: number) => {
    if (at < 0 || at + 4 > bytes.length) throw unreadable()
    return view.getInt32(at, true)
  }
  const sectorSize = bytes[30] === 12 ? 4096 : 512
  const perSector = sectorSize / 4
  const sectors = Math.floor(bytes.length / sectorSize) // the header's sector included
  const sectorAt = (index: number) => (index + 1) * sectorSize

  const batCount = int(0x2c)
  const xbatCount = int(0x48)
  const sbatCount = int(0x40)
  for (const count of [batCount, xbatCount, sbatCount]) if (count < 0 || count > sectors) throw unreadable()

  // The sectors of the allocation table: 109 listed in the header, the rest in extension sectors.
  const bat: number[] = []
  for (let i = 0; i < Math.min(batCount, 109); i++) bat.push(int(0x4c + 4 * i))
  let xbat = int(0x44)
  for (let i = 0; i < xbatCount && bat.length < batCount; i++) {
    for (let j = 0; j < perSector - 1 && bat.length < batCount; j++) {
      const sector = int(sectorAt(xbat) + 4 * j)
      if (sector < 0) break
      bat.push(sector)
    }
    xbat = int(sectorAt(xbat) + 4 * (perSector - 1))
    if (xbat < 0) break
  }
  const next = (table: number[], index: number) => {
    const sector = table[Math.floor(index / perSector)]
    return sector === undefined ? END : int(sectorAt(sector) + 4 * (index % perSector))
  }
  /** The sectors of a chain, which must end within as many steps as the table has entries. */
  const chain = (table: number[], start: number, limit = Infinity) => {
    const out: number[] = []
    const seen = new Set<number>()
    for (let index = start; index >= 0 && out.length < limit; index = next(table, index)) {
      if (seen.has(index) || out.length > table.length * perSector) throw unreadable()
      seen.add(index)
      out.push(index)
    }
    return out
  }

  const sbat = int(0x3c) ? chain(bat, int(0x3c), sbatCount) : []
  const directory = chain(bat, int(0x30))
  const entries = directory.length * (sectorSize / 128)
  const entry = (i: number) => {
    const at = sectorAt(directory[Math.floor(i / (sectorSize / 128))]!) + 128 * (i % (sectorSize / 128))
    return { type: bytes[at + 0x42], left: int(at + 0x44), right: int(at + 0x48), child: int(at + 0x4c), start: int(at + 0x74), size: int(at + 0x78) }
  }

  // The tree from the root: every entry reached once at most, every stream's chain finite.
  const seen = new Set<number>()
  let total = 0
  const pending = [0]
  while (pending.length) {
    const i = pending.pop()!
    if (i < 0) continue
    if (i >= entries || seen.has(i)) throw unreadable()
    seen.add(i)
    const e = entry(i)
    pending.push(e.left, e.right, e.type === 1 || e.type === 5 ? e.child : -1)
    if (e.type !== 2 && e.type !== 5) continue
    if (e.size < 0 || e.size > bytes.length) throw new AppError('SOURCE_TOO_LARGE')
    total += e.size
    if (e.size > 0) chain(e.type === 5 || e.size >= 4096 ? bat : sbat, e.start)
  }
  // Streams do not share sectors: together they hold no more than the file (the mini streams once
  // more inside the root's).
  if (total > 2 * bytes.length) throw new AppError('SOURCE_TOO_LARGE')
}
