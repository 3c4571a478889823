import { FileUp } from '../../../components/icons'
import { useRef, useState, type DragEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { cn } from '../../../lib/cn'

const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files')

type FileDropZoneProps = {
  onFiles: (files: File[]) => void
  /** Why files cannot be added here; the overlay says it instead of inviting the drop. */
  unavailable?: string | null
  className?: string
  children: ReactNode
}

/** Files dragged anywhere over `children` can be dropped there; an overlay shows where while dragging. */
export function FileDropZone({ onFiles, unavailable, className, children }: FileDropZoneProps) {
  const { t } = useTranslation('sources')
  const [dragging, setDragging] = useState(false)
  // dragenter and dragleave fire for every child crossed: only the outermost pair counts.
  const depth = useRef(0)

  const onDragEnter = (event: DragEvent) => {
    if (!carriesFiles(event)) return
    event.preventDefault()
    depth.current += 1
    setDragging(true)
  }
  const onDragLeave = (event: DragEvent) => {
    if (!carriesFiles(event)) return
    depth.current = Math.max(0, depth.current - 1)
    if (depth.current === 0) setDragging(false)
  }
  const onDragOver = (event: DragEvent) => {
    if (!carriesFiles(event)) return
    event.preventDefault() // allows the drop
    event.dataTransfer.dropEffect = unavailable ? 'none' : 'copy'
  }
  const onDrop = (event: DragEvent) => {
    if (!carriesFiles(event)) return
    event.preventDefault() // the browser would otherwise open the file
    depth.current = 0
    setDragging(false)
    const files = [...event.dataTransfer.files]
    if (unavailable) toast.info(unavailable)
    else if (files.length) onFiles(files)
  }

  return (
    <div className={cn('relative', className)} onDragEnter={onDragEnter} onDragLeave={onDragLeave} onDragOver={onDragOver} onDrop={onDrop}>
      {children}
      {dragging && (
        <div
          data-testid="file-drop-zone"
          className="pointer-events-none absolute inset-2 z-40 grid place-items-center rounded-2xl border-2 border-dashed border-ring/60 bg-background/85 backdrop-blur-[2px]"
        >
          <div className="grid max-w-sm justify-items-center gap-2 px-6 text-center">
            <FileUp aria-hidden className="size-8 text-muted-foreground" />
            <p className="font-medium">{unavailable ? t('drop.unavailableTitle') : t('drop.title')}</p>
            <p className="text-sm text-muted-foreground">{unavailable ?? t('drop.hint')}</p>
          </div>
        </div>
      )}
    </div>
  )
}
