import type { Element } from 'hast'
import { toText } from 'hast-util-to-text'
import { use, useEffect, useSyncExternalStore, type ReactElement } from 'react'
import { preinit } from 'react-dom'
import { useTranslation } from 'react-i18next'
import ReactMarkdown, { type Components, type Options } from 'react-markdown'
import type { PluggableList } from 'unified'
import { remarkGfmRead } from '../lib/remark-gfm-read'
import { cn } from '../../../lib/cn'
import { onDemand } from '../../../lib/lazy-part'
import { CitationRef, CitationsContext } from './citation-ref'
import { CodeBlock } from './code-block'
import { EXTERNAL_REL, LINK_UNDERLINE } from '../lib/external-link'
import { codeLanguage, mayHaveNamedCode } from '../lib/code-language'
import { hasMath, normalizeMathDelimiters } from '../lib/math-text'
import { rehypeCitations } from '../lib/rehype-citations'
import type { SourcePassage } from '../lib/tool-data'

type MathPlugins = typeof import('../lib/math-plugins')
type Highlighter = typeof import('../lib/highlight-code')

// KaTeX and its plugins: only for messages with math. highlight.js and its grammars: for messages
// with code that names its language. Each in a chunk of its own, shared by every message once loaded.
// Math counts as loaded once KaTeX's stylesheet has too: a reply rendered with a stylesheet still
// loading would suspend and show its plain text meanwhile (decision 0133).
const math = onDemand(() => import('../lib/math-plugins').then(async (m) => (await stylesheetLoaded(m.katexStylesheet), m)))
const highlighter = onDemand(() => import('../lib/highlight-code'))

/**
 * Loads the code highlighter: the server before it renders a chat's or a shared chat's page (their
 * loaders await preloadMarkdown), a chat's page once it is interactive, so that code in a new reply
 * is highlighted as it streams in.
 */
export const loadHighlighter = () => highlighter.load()

// The browser: when the server's HTML holds highlighted code, its replies will wait for the
// highlighter as they hydrate, so it is asked for as soon as this chunk runs, not when they render.
if (typeof document !== 'undefined' && document.querySelector('pre.hljs [class^="hljs-"]')) void highlighter.load()

/** How long math waits for its stylesheet at most: then it shows without waiting (and its replies may suspend until the stylesheet arrives). */
const STYLESHEET_WAIT_MS = 10_000

/**
 * Inserts the stylesheet as the `<link precedence="katex">` a reply renders would (React's own
 * resource, inserted at once), and settles once it has loaded or failed, or after STYLESHEET_WAIT_MS.
 */
function stylesheetLoaded(href: string) {
  preinit(href, { as: 'style', precedence: 'katex' })
  const link = document.querySelector<HTMLLinkElement>(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`)
  if (!link || link.sheet) return Promise.resolve()
  return new Promise<void>((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true })
    link.addEventListener('error', () => resolve(), { once: true })
    setTimeout(resolve, STYLESHEET_WAIT_MS)
  })
}

/** The math plugins when `text` needs them and they are loaded; asks for them otherwise. */
function useMath(text: string): MathPlugins | null {
  const needed = hasMath(text)
  const loaded = math.use()
  useEffect(() => {
    if (needed && !math.loaded()) void math.load()
  }, [needed])
  return needed ? (loaded ?? null) : null
}

/** useSyncExternalStore's snapshot while the server renders the page or the browser hydrates it. */
const SERVER_HTML = 'server-html'
const serverHtml = (): typeof SERVER_HTML => SERVER_HTML
/** What hydrating replies wait for: one load, so that a chunk that fails to arrive is not asked for again and again. */
let hydrationLoad: Promise<void> | undefined

/**
 * The highlighter when `text` has code to highlight. The server renders with it (preloadMarkdown
 * loads it before a chat's page renders), so a reply the browser hydrates waits for it (React keeps
 * the server's HTML meanwhile: markdown.tsx's Suspense). Later renders show the code plain until it
 * has loaded. Two cases render the reply anew instead of hydrating it, with its code plain until
 * the highlighter has arrived: its text or props change while it waits (a reply still streaming
 * when the page opened), or the highlighter's chunk fails to load (React logs the mismatch).
 */
function useHighlighter(text: string): Highlighter | null {
  const needed = mayHaveNamedCode(text)
  const current = useSyncExternalStore<Highlighter | undefined | typeof SERVER_HTML>(highlighter.subscribe, highlighter.get, serverHtml)
  useEffect(() => {
    if (needed && !highlighter.loaded()) void highlighter.load()
  }, [needed])
  if (!needed) return null
  if (current !== SERVER_HTML) return current ?? null
  if (!highlighter.loaded()) use((hydrationLoad ??= highlighter.load()))
  return highlighter.get() ?? null
}

const components: Components = {
  a: ({ node: _node, href, children, ...props }) =>
    // react-markdown's default urlTransform has already emptied javascript:, data: and the like.
    href ? (
      <a
        {...props}
        href={href}
        {...(href.startsWith('#') ? {} : { target: '_blank', rel: EXTERNAL_REL })}
        className={cn('font-medium text-foreground', LINK_UNDERLINE)}
      >
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ src, alt }) => <ImageLink src={typeof src === 'string' ? src : ''} alt={alt ?? ''} />,
  pre: ({ node, children }) => {
    const code = node?.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code')
    return (
      <CodeBlock language={code ? codeLanguage(code) : null} code={node ? toText(node, { whitespace: 'pre' }).replace(/\n$/, '') : ''}>
        {children}
      </CodeBlock>
    )
  },
  code: ({ node: _node, className, ...props }) => (
    <code {...props} className={['rounded bg-muted px-1.5 py-0.5 font-mono text-[0.875em]', className].filter(Boolean).join(' ')} />
  ),
  p: ({ node: _node, ...props }) => <p className="my-3 first:mt-0 last:mb-0" {...props} />,
  h1: ({ node: _node, ...props }) => <h1 className="mb-3 mt-6 text-xl font-semibold first:mt-0" {...props} />,
  h2: ({ node: _node, ...props }) => <h2 className="mb-2 mt-6 text-lg font-semibold first:mt-0" {...props} />,
  h3: ({ node: _node, ...props }) => <h3 className="mb-2 mt-5 text-base font-semibold first:mt-0" {...props} />,
  h4: ({ node: _node, ...props }) => <h4 className="mb-2 mt-4 font-semibold first:mt-0" {...props} />,
  ul: ({ node: _node, ...props }) => <ul className="my-3 list-disc space-y-1 pl-6 first:mt-0 last:mb-0" {...props} />,
  ol: ({ node: _node, ...props }) => <ol className="my-3 list-decimal space-y-1 pl-6 first:mt-0 last:mb-0" {...props} />,
  li: ({ node: _node, ...props }) => <li className="pl-1 marker:text-muted-foreground" {...props} />,
  blockquote: ({ node: _node, ...props }) => <blockquote className="my-3 border-l-2 pl-4 text-muted-foreground" {...props} />,
  hr: () => <hr className="my-6" />,
  table: ({ node: _node, ...props }) => (
    <div className="my-4 overflow-x-auto rounded-lg border first:mt-0 last:mb-0">
      <table className="w-full border-collapse text-sm" {...props} />
    </div>
  ),
  th: ({ node: _node, ...props }) => <th className="border-b bg-muted/50 px-3 py-2 text-left font-medium" {...props} />,
  td: ({ node: _node, ...props }) => <td className="border-b px-3 py-2 align-top [tr:last-child_&]:border-b-0" {...props} />,
  // Only rehypeCitations makes these (raw HTML in a reply stays text): a citation of a source passage.
  cite: ({ node, children }) => {
    const index = Number(node?.properties?.dataPassage)
    return Number.isInteger(index) ? <CitationRef index={index}>{children}</CitationRef> : <cite>{children}</cite>
  },
}

const NO_PASSAGES: SourcePassage[] = []

/**
 * Finished replies, rendered once and kept: the virtualised message list mounts a reply again
 * each time it scrolls into view, and parsing its markdown (highlighting code, typesetting math)
 * is what made scrolling a long chat drop frames. The most recently used entries stay.
 */
const kept = new Map<string, ReactElement>()
const KEPT_REPLIES = 400

function keptRender(key: string, render: () => ReactElement): ReactElement {
  const found = kept.get(key)
  if (found) {
    kept.delete(key)
    kept.set(key, found)
    return found
  }
  const element = render()
  kept.set(key, element)
  if (kept.size > KEPT_REPLIES) kept.delete(kept.keys().next().value!)
  return element
}

/**
 * Markdown of a model's reply, made safe: raw HTML is shown as text (react-markdown's default,
 * and no plugin here adds raw HTML, so no sanitiser is needed), unsafe URLs are emptied, links
 * open in a new tab without referrer or opener, and images are never loaded: they become links.
 * Citations of the given source passages show the passage they cite.
 */
export function MarkdownRenderer(props: { text: string; passages?: SourcePassage[]; keep?: boolean }) {
  const mathPlugins = useMath(props.text)
  const code = useHighlighter(props.text)
  const passages = props.passages ?? NO_PASSAGES
  const citations: PluggableList = passages.length ? [[rehypeCitations, passages]] : []
  const highlight: PluggableList = code ? [code.rehypeHighlightCode] : []
  const options: Options = mathPlugins
    ? {
        remarkPlugins: [remarkGfmRead, ...mathPlugins.remarkPlugins],
        rehypePlugins: [...mathPlugins.rehypePlugins, ...highlight, ...citations],
      }
    : { remarkPlugins: [remarkGfmRead], rehypePlugins: [...highlight, ...citations] }
  const text = mathPlugins ? normalizeMathDelimiters(props.text) : props.text
  // react-markdown's synchronous renderer is a plain function of its options (no hooks), so its tree can be kept.
  const render = () => ReactMarkdown({ ...options, components, children: text })
  return (
    <CitationsContext.Provider value={passages}>
      {/* React hoists the stylesheet into the head, once. */}
      {mathPlugins && <link rel="stylesheet" href={mathPlugins.katexStylesheet} precedence="katex" />}
      {props.keep ? keptRender(`${mathPlugins ? 'math' : 'text'}${code ? '+code' : ''}\n${passages.length ? JSON.stringify(passages) : ''}\n${text}`, render) : render()}
    </CitationsContext.Provider>
  )
}

function ImageLink(props: { src: string; alt: string }) {
  const { t } = useTranslation('chat')
  const label = props.alt ? t('markdown.image', { alt: props.alt }) : t('markdown.imageNoAlt')
  if (!props.src) return <span>{label}</span>
  return (
    <a href={props.src} target="_blank" rel={EXTERNAL_REL} className={LINK_UNDERLINE}>
      {label}
    </a>
  )
}
