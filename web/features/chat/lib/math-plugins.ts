/**
 * Math for the markdown renderer: remark-math + KaTeX. About 90 KB compressed, so it is a chunk
 * of its own, loaded only once a message contains math. KaTeX's stylesheet and fonts are copied
 * into the build by web/build.ts.
 */
import katex from 'katex'
import rehypeKatex from 'rehype-katex'
import remarkMath from 'remark-math'
import type { Options } from 'react-markdown'

type PluggableList = NonNullable<Options['remarkPlugins']>

// A single $ is too often money ("$5 to $10"): math-text.ts turns the $…$ that is math into $$…$$ first.
export const remarkPlugins: PluggableList = [[remarkMath, { singleDollarTextMath: false }]]
// trust: false (the default) keeps \href, \url and \html* commands from making links or markup.
export const rehypePlugins: PluggableList = [[rehypeKatex, { throwOnError: false, strict: 'ignore', trust: false }]]

export const katexStylesheet = `/build/katex-${katex.version}/katex.min.css`
