import { CopyField } from './copy-field'
import { Button } from './ui/button'

/** A secret just made (an API key, a SCIM token), shown this once to be copied; the labels are the caller's translations. */
export function ShownOncePanel(props: {
  title: string
  text: string
  value: string
  label: string
  testId: string
  labels: { copy: string; copied: string; copyFailed: string; done: string }
  onDone: () => void
}) {
  const { labels } = props
  return (
    <div role="status" className="grid gap-3 rounded-md border border-primary/30 bg-primary/5 p-4">
      <div className="grid gap-1">
        <p className="font-medium">{props.title}</p>
        <p className="text-sm text-muted-foreground">{props.text}</p>
      </div>
      <CopyField value={props.value} label={props.label} testId={props.testId} copy={labels.copy} copied={labels.copied} copyFailed={labels.copyFailed} />
      <div>
        <Button onClick={props.onDone}>{labels.done}</Button>
      </div>
    </div>
  )
}
