import { Braces } from '../../../components/icons'
import { Badge } from '../../../components/ui/badge'
import { cn } from '../../../lib/cn'

/** The `{{variables}}` of a prompt as small chips; `label` names the list for screen readers. */
export function VariableChips(props: { names: string[]; label: string; className?: string }) {
  if (props.names.length === 0) return null
  return (
    <ul aria-label={props.label} className={cn('flex flex-wrap gap-1.5', props.className)}>
      {props.names.map((name) => (
        <li key={name} className="min-w-0 max-w-full">
          <Badge variant="info" className="max-w-full gap-1 font-mono text-[11px]">
            <Braces aria-hidden className="size-3 shrink-0" />
            <span className="truncate">{name}</span>
          </Badge>
        </li>
      ))}
    </ul>
  )
}
