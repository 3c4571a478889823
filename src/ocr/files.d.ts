/** A file imported `with { type: 'file' }` (Bun): its path, on disk or inside the single binary. */
declare module '*.traineddata.gz' {
  const path: string
  export default path
}
