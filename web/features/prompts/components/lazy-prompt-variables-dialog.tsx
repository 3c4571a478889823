import { useState } from 'react'
import { lazyPart } from '../../../lib/lazy-part'
import type { PromptToFill } from '../../../lib/fill-variables'

// The form for a prompt's variables (react-hook-form, zod) is not among the chat's first scripts:
// it loads when a prompt with variables is about to be filled in.
const PromptVariablesDialog = lazyPart(() => import('./prompt-variables-dialog').then((m) => m.PromptVariablesDialog))
export const preloadPromptVariablesDialog = PromptVariablesDialog.preload

type Props = { prompt: PromptToFill | null; onSubmit: (text: string) => void; onCancel: () => void }

/** PromptVariablesDialog, loaded the first time there is a prompt to fill in. */
export function LazyPromptVariablesDialog(props: Props) {
  // Once shown it stays mounted: it hands the text over only after it has closed.
  const [shown, setShown] = useState(false)
  if (props.prompt && !shown) setShown(true)
  return props.prompt || shown ? <PromptVariablesDialog {...props} /> : null
}
