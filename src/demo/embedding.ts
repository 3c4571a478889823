/**
 * A bag-of-words hashing embedding: each word adds ±1 to one of `dims` buckets, then the vector
 * is normalised. Identical texts get identical vectors and texts sharing words are closer: enough
 * for the demo's retrieval and for the tests' fake provider, with no model to download.
 */
export function hashingEmbedding(text: string, dims = 256): number[] {
  const vector = new Array<number>(dims).fill(0)
  const tokens = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  for (const token of tokens) {
    let hash = 0x811c9dc5
    for (const ch of token) hash = Math.imul(hash ^ ch.codePointAt(0)!, 0x01000193) >>> 0
    vector[hash % dims]! += hash & 0x80000000 ? -1 : 1
  }
  const norm = Math.hypot(...vector)
  if (norm === 0) vector[0] = 1
  return norm === 0 ? vector : vector.map((v) => v / norm)
}
