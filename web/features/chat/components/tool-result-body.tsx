import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../../lib/cn'
import { EXTERNAL_REL, LINK_UNDERLINE } from '../lib/external-link'
import { hostOf, mcpResultOf, passagesOf, searchResultsOf, type SearchResult, type SourcePassage } from '../lib/tool-data'
import { parseArguments, type ToolCallView } from '../lib/tool-parts'
import { PageLabel } from './page-label'

/** What a tool answered, shown the way that suits the tool; the raw text when there is nothing better. */
export function ToolResultBody({ call }: { call: ToolCallView }) {
  const { result } = call
  if (!result) return null
  if (!result.isError) {
    if (call.name === 'internet_search') {
      const results = searchResultsOf(result.data)
      if (results) return <SearchResults results={results} />
    }
    if (call.name === 'source_query') return <SourcePassages passages={passagesOf(result.data)} />
    if (call.name === 'website_content') return <WebPage data={result.data} text={result.result} />
    const mcp = mcpResultOf(result.data)
    if (mcp) return <McpResultView result={mcp} call={call} />
  }
  return <RawResult call={call} />
}

function SearchResults({ results }: { results: SearchResult[] }) {
  const { t } = useTranslation('tools')
  if (!results.length) return <p className="text-muted-foreground">{t('noResults')}</p>
  return (
    <ol className="grid grid-cols-1 gap-3" data-testid="search-results">
      {results.map((r, i) => (
        <li key={`${i}-${r.url}`} className="min-w-0">
          <a
            href={r.url}
            target="_blank"
            rel={EXTERNAL_REL}
            className={cn('font-medium text-foreground', LINK_UNDERLINE)}
          >
            {r.title || hostOf(r.url)}
            <span className="sr-only"> {t('newTab')}</span>
          </a>
          <div className="truncate text-xs text-muted-foreground">{hostOf(r.url)}</div>
          {r.snippet && <p className="mt-0.5 line-clamp-2 break-words text-muted-foreground">{r.snippet}</p>}
        </li>
      ))}
    </ol>
  )
}

function SourcePassages({ passages }: { passages: SourcePassage[] }) {
  const { t } = useTranslation('tools')
  if (!passages.length) return <p className="text-muted-foreground">{t('noPassages')}</p>
  return (
    <ol className="grid grid-cols-1 gap-3" data-testid="source-passages">
      {passages.map((p, i) => (
        <li key={`${i}-${p.citation}`} className="min-w-0">
          <div className="flex flex-wrap items-baseline gap-x-2">
            <span className="break-all font-medium">{p.sourceName}</span>
            <span className="text-xs text-muted-foreground">
              <PageLabel passage={p} />
            </span>
          </div>
          {p.headingPath && <div className="truncate text-xs text-muted-foreground">{p.headingPath}</div>}
          {p.text && (
            <p
              tabIndex={0}
              className="mt-1 max-h-32 overflow-y-auto whitespace-pre-wrap break-words rounded border-l-2 pl-2 text-muted-foreground outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {p.text}
            </p>
          )}
        </li>
      ))}
    </ol>
  )
}

function WebPage({ data, text }: { data: unknown; text: string }) {
  const { t } = useTranslation('tools')
  const page = typeof data === 'object' && data !== null ? (data as { url?: unknown; title?: unknown }) : {}
  const url = typeof page.url === 'string' && hostOf(page.url) ? page.url : null
  const title = typeof page.title === 'string' && page.title ? page.title : null
  return (
    <div className="grid grid-cols-1 gap-2">
      {url && (
        <a href={url} target="_blank" rel={EXTERNAL_REL} className={cn('break-all font-medium', LINK_UNDERLINE)}>
          {title ?? hostOf(url)}
          <span className="sr-only"> {t('newTab')}</span>
        </a>
      )}
      <Scrollable text={text} />
    </div>
  )
}

/** An MCP tool's answer: its text (with the arguments), the pictures it returned and the resources it named as links. */
function McpResultView({ result, call }: { result: NonNullable<ReturnType<typeof mcpResultOf>>; call: ToolCallView }) {
  const { t } = useTranslation('tools')
  const links = result.resources.filter((r) => hostOf(r.uri))
  return (
    <div className="grid grid-cols-1 gap-2">
      {result.images.length > 0 && (
        <div className="flex flex-wrap gap-2">
          {result.images.map((image, i) => (
            <Base64Image key={i} image={image} alt={t('mcpImage', { tool: result.tool, n: i + 1 })} />
          ))}
        </div>
      )}
      {links.length > 0 && (
        <ul className="grid gap-1">
          {links.map((r) => (
            <li key={r.uri}>
              <a href={r.uri} target="_blank" rel={EXTERNAL_REL} className={cn('break-all', LINK_UNDERLINE)}>
                {r.name || r.uri}
                <span className="sr-only"> {t('newTab')}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      <RawResult call={call} />
    </div>
  )
}

/** A picture held as base64, shown through a blob: URL of this page (the page's CSP allows no data: images). */
function Base64Image({ image, alt }: { image: { mimeType: string; data: string }; alt: string }) {
  const [src, setSrc] = useState<string | null>(null)
  useEffect(() => {
    let url: string | null = null
    try {
      const bytes = Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0))
      url = URL.createObjectURL(new Blob([bytes], { type: image.mimeType }))
      setSrc(url)
    } catch {
      setSrc(null)
    }
    return () => {
      if (url) URL.revokeObjectURL(url)
    }
  }, [image.data, image.mimeType])
  if (!src) return null
  return <img src={src} alt={alt} className="max-h-60 max-w-full rounded-md border bg-background object-contain" />
}

/** The arguments (for tools without a view of their own) and the text the model was given. */
function RawResult({ call }: { call: ToolCallView }) {
  const { t } = useTranslation('tools')
  const args = parseArguments(call.arguments)
  return (
    <div className="grid grid-cols-1 gap-2">
      {!call.result?.isError && (
        <div>
          <div className="mb-1 text-xs font-medium text-muted-foreground">{t('arguments')}</div>
          <Scrollable text={args ? JSON.stringify(args, null, 2) : call.arguments} mono />
        </div>
      )}
      <div>
        <div className="mb-1 text-xs font-medium text-muted-foreground">{call.result?.isError ? t('details') : t('result')}</div>
        <Scrollable text={call.result?.result ?? ''} />
      </div>
    </div>
  )
}

function Scrollable({ text, mono }: { text: string; mono?: boolean }) {
  return (
    <pre
      tabIndex={0}
      className={`max-h-60 overflow-auto whitespace-pre-wrap break-words rounded-md bg-background/60 p-2 text-xs leading-relaxed outline-none focus-visible:ring-2 focus-visible:ring-ring ${mono ? 'font-mono' : 'font-sans'}`}
    >
      {text}
    </pre>
  )
}
