import { useState } from 'react'
import { checkFiles } from '../lib/check-files'
import { useAnnounceRefused } from './use-announce-refused'

export type PendingFile = { key: string; file: File }

let nextKey = 0

/** Files chosen for a chat that does not exist yet: uploaded once its first message creates it. */
export function usePendingFiles() {
  const [files, setFiles] = useState<PendingFile[]>([])
  const announceRefused = useAnnounceRefused()

  const add = (chosen: File[]) => {
    const { accepted, refused } = checkFiles(chosen, files.length)
    announceRefused(refused)
    setFiles((list) => [...list, ...accepted.map((file) => ({ key: `pending-${++nextKey}`, file }))])
  }
  const remove = (key: string) => setFiles((list) => list.filter((f) => f.key !== key))

  return { files, add, remove }
}
