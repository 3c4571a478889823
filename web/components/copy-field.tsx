import { Check, Copy } from './icons'
import { useRef, useState } from 'react'
import { toast } from './toaster'
import { Button } from './ui/button'
import { Input } from './ui/input'

/** A read-only value (a link, a key) with a Copy button; the labels are the caller's translations. */
export function CopyField(props: { value: string; label: string; testId: string; copy: string; copied: string; copyFailed: string }) {
  const [copied, setCopied] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  const copy = async () => {
    try {
      // Missing outside secure contexts (plain http on another host): then the text is selected instead.
      await navigator.clipboard.writeText(props.value)
      setCopied(true)
    } catch {
      input.current?.select()
      toast.error(props.copyFailed)
    }
  }

  return (
    <>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          ref={input}
          readOnly
          value={props.value}
          aria-label={props.label}
          data-testid={props.testId}
          className="font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="outline" onClick={copy} className="shrink-0">
          {copied ? <Check /> : <Copy />}
          {copied ? props.copied : props.copy}
        </Button>
      </div>
      <span aria-live="polite" className="sr-only">
        {copied ? props.copied : ''}
      </span>
    </>
  )
}
