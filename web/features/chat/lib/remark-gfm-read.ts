import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'
import type { Processor } from 'unified'

/** What remark's parser reads from the processor's data (remark-parse). */
type ParserData = { micromarkExtensions?: ReturnType<typeof gfm>[]; fromMarkdownExtensions?: ReturnType<typeof gfmFromMarkdown>[] }

/**
 * GitHub-flavoured markdown (tables, task lists, strikethrough, autolinks, footnotes) for reading
 * only: remark-gfm's parser extensions without its writer's (mdast-util-to-markdown and the GFM
 * serialisers, about 7 KB gzip of an open chat's first scripts). Replies are parsed, never written
 * back as markdown.
 */
export function remarkGfmRead(this: Processor) {
  const data = this.data() as ParserData
  ;(data.micromarkExtensions ??= []).push(gfm())
  ;(data.fromMarkdownExtensions ??= []).push(gfmFromMarkdown())
}
