import { Paperclip } from '../../../components/icons'
import { useId, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { toast } from '../../../components/toaster'
import { Tooltip } from '../../../components/ui/tooltip'
import { cn } from '../../../lib/cn'
import { SOURCE_ACCEPT } from '../lib/check-files'

type AttachButtonProps = {
  onFiles: (files: File[]) => void
  /** Why files cannot be added here (no embedding model): the button stays focusable and says so. */
  unavailable?: string | null
  className?: string
}

/** Opens the browser's file dialog for the types a chat takes; several files at once. */
export function AttachButton({ onFiles, unavailable, className }: AttachButtonProps) {
  const { t } = useTranslation('sources')
  const input = useRef<HTMLInputElement>(null)
  const reasonId = useId()
  const label = unavailable ?? t('attach.label')

  return (
    <>
      <Tooltip label={label} side="top" className={unavailable ? 'max-w-xs leading-snug' : undefined}>
        <button
          type="button"
          // aria-disabled rather than disabled: a disabled button gets no hover or focus, so it could not explain itself.
          aria-disabled={unavailable ? true : undefined}
          aria-label={t('attach.label')}
          aria-describedby={unavailable ? reasonId : undefined}
          data-testid="attach-files"
          onClick={() => (unavailable ? toast.info(unavailable) : input.current?.click())}
          className={cn(
            'grid size-8 shrink-0 place-items-center rounded-full text-muted-foreground outline-none transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring aria-disabled:cursor-not-allowed aria-disabled:opacity-50 aria-disabled:hover:bg-transparent',
            className,
          )}
        >
          <Paperclip aria-hidden className="size-4" />
        </button>
      </Tooltip>
      {unavailable && (
        <span id={reasonId} className="sr-only">
          {unavailable}
        </span>
      )}
      <input
        ref={input}
        type="file"
        multiple
        accept={SOURCE_ACCEPT}
        tabIndex={-1}
        aria-hidden
        data-testid="attach-files-input"
        className="hidden"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])]
          event.target.value = '' // the same file can be chosen again after it was removed
          if (files.length) onFiles(files)
        }}
      />
    </>
  )
}
