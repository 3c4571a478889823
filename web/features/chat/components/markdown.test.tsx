import { beforeAll, describe, expect, test } from 'bun:test'
import { renderToString } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import { allStrings } from '../../../locales/all'
import { createI18n } from '../../../lib/i18n'
import ReactMarkdown from 'react-markdown'
import { mayHaveNamedCode } from '../lib/code-language'
import { rehypeHighlightCode } from '../lib/highlight-code'
import { remarkGfmRead } from '../lib/remark-gfm-read'
import type { SourcePassage } from '../lib/tool-data'
import { loadHighlighter, MarkdownRenderer } from './markdown-renderer'

const i18n = createI18n('en', allStrings)
// The server renders a chat's page once the highlighter is loaded (preloadMarkdown).
beforeAll(() => loadHighlighter())
const render = (text: string, passages?: SourcePassage[]) =>
  renderToString(
    <I18nextProvider i18n={i18n}>
      <MarkdownRenderer text={text} passages={passages} />
    </I18nextProvider>,
  )

describe('markdown of model replies', () => {
  test('a script tag is shown as text, never as an element', () => {
    const html = render('Before\n\n<script>alert("x")</script>\n\nAfter <script>alert(1)</script> inline')
    expect(html).not.toContain('<script')
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
    expect(html).toContain('After')
  })

  test('HTML with event handlers comes through as text only', () => {
    const html = render('<img src="x" onerror="alert(1)">\n\n<a href="#" onclick="alert(2)">click</a> <div onmouseover="alert(3)">hi</div>')
    expect(html).not.toMatch(/<img/i)
    expect(html).not.toMatch(/<[a-z]+[^>]*\son(error|click|mouseover)=/i)
    expect(html).toContain('onerror=&quot;alert(1)&quot;')
  })

  test('javascript:, vbscript: and data: links lose their target', () => {
    const html = render('[one](javascript:alert(1)) [two](JaVaScRiPt:alert(2)) [three](vbscript:msgbox) [four](data:text/html;base64,PHNjcmlwdD4=)')
    expect(html).not.toMatch(/javascript:/i)
    expect(html).not.toMatch(/vbscript:/i)
    expect(html).not.toMatch(/href="data:/i)
    expect(html).toContain('one')
    expect(html).toContain('four')
  })

  test('links open in a new tab without opener, referrer or endorsement', () => {
    const html = render('See [the docs](https://example.com/docs) and <https://example.org>.')
    expect(html).toContain('href="https://example.com/docs"')
    expect(html).toContain('target="_blank"')
    expect(html).toContain('rel="noopener noreferrer nofollow"')
    expect(html.match(/rel="noopener noreferrer nofollow"/g)).toHaveLength(2)
  })

  test('images are not loaded: they become a link named after their alt text', () => {
    const html = render('![A chart](https://tracker.example/pixel.png) and ![](https://example.com/a.png)')
    expect(html).not.toMatch(/<img/i)
    expect(html).toContain('Image: A chart')
    expect(html).toContain('href="https://tracker.example/pixel.png"')
    expect(html).toContain('>Image</a>')
  })

  test('a javascript: image becomes plain text', () => {
    const html = render('![x](javascript:alert(1))')
    expect(html).not.toMatch(/javascript:/i)
    expect(html).toContain('Image: x')
  })

  test('tables (GFM) render as tables', () => {
    const html = render('| Name | Seats |\n| --- | --- |\n| Acme | 12 |')
    expect(html).toContain('<table')
    expect(html).toContain('<th')
    expect(html).toContain('Acme')
  })

  test('the rest of GitHub-flavoured markdown: strikethrough, task lists, autolinks, footnotes', () => {
    const html = render('~~old~~ and ~one~\n\n- [x] done\n- [ ] open\n\nSee www.example.com and https://kontor.example/a.\n\nA claim.[^1]\n\n[^1]: The source.')
    expect(html).toContain('<del>old</del>')
    expect(html).toContain('<del>one</del>')
    expect(html.match(/<input[^>]*type="checkbox"/g)).toHaveLength(2)
    expect(html).toMatch(/<input[^>]*checked/)
    expect(html).toContain('href="http://www.example.com"')
    expect(html).toContain('href="https://kontor.example/a"')
    expect(html).toMatch(/<sup><a [^>]*href="#user-content-fn-1"/)
    expect(html).toContain('The source.')
  })

  test('every text whose code the highlighter changes is one mayHaveNamedCode names (so the browser waits for it while hydrating)', () => {
    // The highlighter applied to every text, not only to those mayHaveNamedCode names.
    const highlighted = (text: string) =>
      renderToString(<ReactMarkdown remarkPlugins={[remarkGfmRead]} rehypePlugins={[rehypeHighlightCode]}>{text}</ReactMarkdown>).includes('class="hljs-')
    const fenced = [
      '```ts\nconst a = 1\n```',
      'Intro\n\n````python\nimport os\n````',
      '~~~ js\nlet b = 2\n~~~',
      '- item\n\n  ```bash\n  ls -la\n  ```',
      '> ```json\n> {"a": 1}\n> ```',
      '1. step\n   ~~~~sql\n   select 1\n   ~~~~',
      '```   go\nfunc main() {}\n```',
      '```\tgo\nfunc main() {}\n```',
      '```TypeScript\nconst c = 3\n```',
      '```js title="a.js"\nlet d = 4\n```',
      '~~~ts `x`\nconst e = 5\n~~~',
      'A claim.[^1]\n\n[^1]: Note:\n\n    ```py\n    x = 1\n    ```',
    ]
    for (const text of fenced) {
      expect({ text, highlighted: highlighted(text) }).toEqual({ text, highlighted: true })
      expect({ text, named: mayHaveNamedCode(text) }).toEqual({ text, named: true })
    }
    // No fence naming a language: nothing to highlight, and the highlighter is not asked for.
    const plain = ['Just text with `inline` code.', '```\nno language\n```', '    indented code\n    block', 'Two ticks `` a ` b `` only.']
    for (const text of plain) {
      expect({ text, highlighted: highlighted(text) }).toEqual({ text, highlighted: false })
      expect({ text, named: mayHaveNamedCode(text) }).toEqual({ text, named: false })
    }
  })

  test('fenced code is highlighted with spans and gets a copy button; unknown languages stay plain', () => {
    const html = render('```ts\nconst answer: number = 42\n```\n\n```klingon\nQapla\'\n```')
    expect(html).toContain('hljs-keyword')
    expect(html).toContain('Copy code')
    expect(html).toContain('>ts<')
    expect(html).toContain('Qapla')
  })

  test('citations of the given passages become buttons showing the passage; in code, links and without passages they stay text', () => {
    const passages: SourcePassage[] = [{ sourceName: 'plant.pdf', page: 3, pageEnd: 3, headingPath: '', citation: '(plant.pdf, p. 3)', text: 'Budget' }]
    const text = 'The budget is 40,000 euros (plant.pdf, p. 3).\n\n`(plant.pdf, p. 3)` and [(plant.pdf, p. 3)](https://example.com) (see above)'
    const html = render(text, passages)
    expect(html.match(/data-testid="citation"/g)).toHaveLength(1)
    expect(html).toContain('aria-label="Show the cited passage (plant.pdf, p. 3)"')
    expect(html).toContain('<cite class="not-italic">(plant.pdf, p. 3)</cite>')
    expect(render(text)).not.toContain('data-testid="citation"')
    // A raw <cite> the model writes is text, never a citation.
    expect(render('<cite data-passage="0">x</cite>', passages)).not.toContain('data-testid="citation"')
  })

  test('inline code and code blocks keep HTML as text', () => {
    const html = render('`<script>1</script>`\n\n```html\n<script>alert(1)</script>\n```')
    expect(html).not.toContain('<script')
  })
})
