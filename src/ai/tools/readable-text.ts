import type { Readability } from '@mozilla/readability'
import { ToolError } from './types'

export type FetchedPage = { url: string; contentType: string; bytes: Uint8Array; truncated: boolean }

type Kind = 'html' | 'pdf' | 'text'

const TEXT_TYPES = new Set(['application/json', 'application/xml', 'application/javascript', 'application/x-yaml', 'application/yaml'])
/** Elements that carry no readable text, or only text a model cannot use. */
const DROPPED = 'script, style, noscript, template, svg, canvas, img, picture, video, audio, iframe, object, embed, form'

/** The HTML readers, loaded when the first page is read (they cost memory and start time otherwise). */
let readers: Promise<{ parseHTML: typeof import('linkedom').parseHTML; Readability: typeof Readability; markdown: import('node-html-markdown').NodeHtmlMarkdown }> | undefined
const loadReaders = () =>
  (readers ??= Promise.all([import('linkedom'), import('@mozilla/readability'), import('node-html-markdown')]).then(([linkedom, readability, nhm]) => ({
    parseHTML: linkedom.parseHTML,
    Readability: readability.Readability,
    markdown: new nhm.NodeHtmlMarkdown({ maxConsecutiveNewlines: 2 }),
  })))

/**
 * The readable text of a fetched page: HTML through Readability (the article, without menus and
 * footers) as markdown; plain text as it is; PDF as its text, page by page. Other content
 * (images, archives, media) is refused with a message saying why.
 */
export async function readableText(page: FetchedPage): Promise<{ title: string; text: string }> {
  const mime = page.contentType.split(';')[0]!.trim().toLowerCase()
  const kind = kindOf(mime, page.bytes)
  if (!kind) {
    throw new ToolError(`The address returned ${mime || 'binary content'}, which cannot be read as text. Web pages, plain text and PDF files can be read.`)
  }
  if (kind === 'pdf') return pdfText(page)
  const text = decode(page.bytes, page.contentType, kind === 'html')
  if (kind === 'text') return { title: '', text: text.trim() }
  return htmlText(text, page.url, await loadReaders())
}

function kindOf(mime: string, bytes: Uint8Array): Kind | undefined {
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html'
  if (mime === 'application/pdf' || startsWith(bytes, '%PDF-')) return 'pdf'
  if (mime.startsWith('text/') || TEXT_TYPES.has(mime) || /\+(json|xml)$/.test(mime)) return 'text'
  if (mime && mime !== 'application/octet-stream') return undefined
  // No useful type given: look at the bytes.
  const head = new TextDecoder().decode(bytes.subarray(0, 1024))
  if (head.includes('\u0000') || head.includes('\uFFFD')) return undefined
  return /^\s*<(!doctype html|html|head|body)/i.test(head) ? 'html' : 'text'
}

const startsWith = (bytes: Uint8Array, magic: string) => [...magic].every((ch, i) => bytes[i] === ch.charCodeAt(0))

/** Text in the charset the header names, else (HTML) the one a meta tag names, else UTF-8. */
function decode(bytes: Uint8Array, contentType: string, html: boolean) {
  let charset = contentType.match(/charset=["']?([\w-]+)/i)?.[1]
  if (!charset && html) charset = new TextDecoder().decode(bytes.subarray(0, 2048)).match(/<meta[^>]+charset=["']?([\w-]+)/i)?.[1]
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes)
  } catch {
    return new TextDecoder().decode(bytes)
  }
}

/**
 * Any text/html gives its text: a fragment without <html> or <body>, a page cut at the size limit
 * or one Readability finds no article in falls back to the whole body, then to its bare text.
 */
function htmlText(html: string, url: string, readers: Awaited<ReturnType<typeof loadReaders>>) {
  try {
    return parsedHtmlText(html, url, readers)
  } catch {
    // linkedom or Readability failed on a broken document: its text without the markup is still worth reading.
    const title = html.match(/<title[^>]*>([^<]*)/i)?.[1]?.replace(/\s+/g, ' ').trim() ?? ''
    const text = html
      .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?(<\/\1>|$)/gi, ' ')
      .replace(/<[^>]*>?/g, ' ')
      .replace(/[ \t]+/g, ' ')
      .trim()
    return { title, text }
  }
}

function parsedHtmlText(html: string, url: string, { parseHTML, Readability, markdown }: Awaited<ReturnType<typeof loadReaders>>) {
  // linkedom gives a document without a body for fragments (text without tags, a cut page): wrap them.
  const whole = /<(html|body)[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`
  const { document } = parseHTML(whole)
  for (const el of document.querySelectorAll(DROPPED)) el.remove()
  // Links stay usable for citing only when absolute.
  for (const a of document.querySelectorAll('a[href]')) {
    try {
      a.setAttribute('href', new URL(a.getAttribute('href')!, url).href)
    } catch {
      a.removeAttribute('href')
    }
  }
  const title = (document.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim()
  document.querySelector('title')?.remove()
  const body = document.body?.innerHTML ?? ''
  const bareText = (document.body?.textContent ?? '').replace(/\s+/g, ' ').trim()
  let article: ReturnType<Readability<string>['parse']> = null
  try {
    article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse()
  } catch {
    // Readability gives up on odd documents; the whole body is used then.
  }
  const text = [article?.content, body].map((h) => (h ? markdown.translate(h).trim() : '')).find(Boolean) ?? bareText
  return { title: article?.title?.trim() || title, text: text || bareText }
}

async function pdfText(page: FetchedPage) {
  if (page.truncated) throw new ToolError('The PDF is larger than 2 MB and cannot be read.')
  const { extractText, getDocumentProxy } = await import('unpdf')
  try {
    // pdf.js takes over the buffer it is given: pass a copy.
    const pdf = await getDocumentProxy(page.bytes.slice(), { stopAtErrors: true, verbosity: 0 })
    const { text } = await extractText(pdf, { mergePages: false })
    const pages = text.map((t, i) => `--- Page ${i + 1} ---\n${t.trim()}`).join('\n\n')
    return { title: '', text: pages }
  } catch {
    throw new ToolError('The PDF could not be read (it may be damaged or password-protected).')
  }
}
