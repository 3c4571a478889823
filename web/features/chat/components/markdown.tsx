import { lazy, memo, Suspense } from 'react'
import type { SourcePassage } from '../lib/tool-data'

const loadRenderer = () => import('./markdown-renderer')
const Renderer = lazy(() => loadRenderer().then((m) => ({ default: m.MarkdownRenderer })))

/** Starts loading the markdown renderer (its own chunk) before a chat needs it. */
export function preloadMarkdown() {
  void loadRenderer().catch(() => {})
}

/**
 * A reply as markdown (citations of `passages` shown with them); the plain text shows until the
 * renderer's chunk has arrived. `keep`: the text is final, so its rendering is kept for the next mount.
 */
export const Markdown = memo(function Markdown(props: { text: string; passages?: SourcePassage[]; keep?: boolean }) {
  return (
    <Suspense fallback={<div className="whitespace-pre-wrap">{props.text}</div>}>
      <Renderer text={props.text} passages={props.passages} keep={props.keep} />
    </Suspense>
  )
})
