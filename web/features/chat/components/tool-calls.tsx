import { emailDraftOf } from '../lib/tool-data'
import type { ToolCallView } from '../lib/tool-parts'
import { EmailDraftCard } from './email-draft-card'
import { ToolCallCard } from './tool-call-card'

/** The tool calls made at one point of a reply, one card each; a finished e-mail draft is its editable card. */
export function ToolCallGroup({ calls, streaming }: { calls: ToolCallView[]; streaming: boolean }) {
  return (
    <div className="my-3 grid grid-cols-1 gap-2 first:mt-0 last:mb-0">
      {calls.map((call) => {
        const draft = call.name === 'send_email' && call.result && !call.result.isError ? emailDraftOf(call) : null
        return draft ? <EmailDraftCard key={call.id} draft={draft} /> : <ToolCallCard key={call.id} call={call} streaming={streaming} />
      })}
    </div>
  )
}
