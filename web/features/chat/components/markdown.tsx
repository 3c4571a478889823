import { lazy, memo, Suspense } from 'react'
import type { SourcePassage } from '../lib/tool-data'

type RendererModule = typeof import('./markdown-renderer')
/** The renderer once its chunk has loaded: rendered without suspending from then on. */
let loaded: RendererModule['MarkdownRenderer'] | undefined
const loadRenderer = () =>
  import('./markdown-renderer').then((m: RendererModule) => {
    loaded = m.MarkdownRenderer
    return m
  })
const Renderer = lazy(() => loadRenderer().then((m) => ({ default: m.MarkdownRenderer })))

/**
 * Starts loading the markdown renderer (its own chunk) and then its code highlighter (another)
 * before a chat needs them. The server waits for both before it renders a chat's or a shared
 * chat's page (web/routes/chat-thread.loader.ts, shared.loader.ts), so a page's replies are
 * rendered as markdown in place, not streamed in after their plain text; a chat's page in the
 * browser calls it once it is interactive.
 */
export function preloadMarkdown() {
  return loadRenderer().then(
    (m) => m.loadHighlighter(),
    () => {},
  )
}

/**
 * Loads the renderer. The chat pages' components carry it as their `preload`, which the router
 * awaits with the page's own chunk, before it hydrates the page or shows it after a navigation:
 * without it, every reply waited for the renderer in a Suspense boundary of its own (decision
 * 0133). A reply with code still waits for the highlighter as it hydrates (decision 0131). It
 * settles without an error either way: a failed load is left to the replies, which meet it as
 * they render (`Renderer`, React.lazy), as before.
 */
export const loadMarkdownRenderer = () => loadRenderer().then(
  () => undefined,
  () => undefined,
)

/**
 * A reply as markdown (citations of `passages` shown with them); the plain text shows until the
 * renderer's chunk has arrived. `keep`: the text is final, so its rendering is kept for the next mount.
 */
export const Markdown = memo(function Markdown(props: { text: string; passages?: SourcePassage[]; keep?: boolean }) {
  // Hydrating before the chunk is here, the lazy one suspends and React keeps the server's HTML meanwhile.
  const Loaded = loaded ?? Renderer
  return (
    <Suspense fallback={<div className="whitespace-pre-wrap" data-markdown-pending="">{props.text}</div>}>
      <Loaded text={props.text} passages={props.passages} keep={props.keep} />
    </Suspense>
  )
})
