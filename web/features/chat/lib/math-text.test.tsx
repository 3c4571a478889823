import { describe, expect, test } from 'bun:test'
import ReactMarkdown from 'react-markdown'
import { renderToString } from 'react-dom/server'
import { remarkGfmRead } from './remark-gfm-read'
import { hasMath, normalizeMathDelimiters } from './math-text'
import { rehypePlugins, remarkPlugins } from './math-plugins'

/** The reply as the chat renders it once the math chunk is there: how many formulas, and the text left. */
function rendered(text: string) {
  const html = renderToString(<ReactMarkdown remarkPlugins={[remarkGfmRead, ...remarkPlugins]} rehypePlugins={rehypePlugins}>{normalizeMathDelimiters(text)}</ReactMarkdown>)
  const formulas = html.match(/<span class="katex">/g)?.length ?? 0
  const display = html.match(/class="katex-display"/g)?.length ?? 0
  // The text outside the formulas (KaTeX's own markup and annotations removed).
  const plain = html
    .replace(/<span class="katex">[\s\S]*?<annotation encoding="application\/x-tex">[\s\S]*?<\/annotation>[\s\S]*?<\/span><\/span>/g, '')
    .replace(/<[^>]+>/g, '')
  return { html, formulas, display, plain }
}

describe('inline math with single dollars', () => {
  test.each([
    ['$x_1$', 1],
    ['Let $x_1$ be the first value.', 1],
    ['where $a+b=c$, and $n$ is odd', 2],
    ['$\\alpha$ and $\\beta$.', 2],
    ['The sum $\\sum_{i=1}^n i = \\frac{n(n+1)}{2}$ holds.', 1],
    ['($x$)', 1],
    ['**$E=mc^2$** in bold', 1],
    ['- item with $y^2$\n- another', 1],
    ['| a | b |\n|---|---|\n| $x$ | 2 |', 1],
    ['$x$ at the start of a line', 1],
    ['A price of $5 and $x$ as a variable', 1],
    ['Line one $a\nb$ line two', 0],
  ])('%p has %p formula(s)', (text, count) => {
    expect(hasMath(text)).toBe(count > 0)
    expect(rendered(text).formulas).toBe(count)
  })

  test.each([
    'It costs $5 and $10.',
    'between $5 and $10',
    'from $5, to $10',
    '$5-$10 a month',
    '$5/$10',
    'US$5 and US$10',
    'Pay $ 5 or $ 10',
    'A single $ sign',
    'Costs $1,000 and $2,500.50 respectively',
    'Save $5! Or $10?',
    'Escaped \\$x\\$ is not math',
    'Prices: $5\n\nand then $10',
    '$',
    'a $ b $ c',
  ])('%p stays text with its dollars', (text) => {
    expect(hasMath(text)).toBe(false)
    const { formulas, plain } = rendered(text)
    expect(formulas).toBe(0)
    expect((plain.match(/\$/g) ?? []).length).toBe((text.replace(/\\\$/g, '$').match(/\$/g) ?? []).length)
  })

  test('code keeps its dollars: spans, fenced blocks and shell variables', () => {
    for (const text of ['Run `echo $HOME$PATH`', '```sh\nexport A=$B$C\n```', '~~~\n$x$\n~~~']) {
      expect(hasMath(text)).toBe(false)
      expect(normalizeMathDelimiters(text)).toBe(text)
    }
    expect(normalizeMathDelimiters('`$a$` and $b$')).toBe('`$a$` and $$b$$')
  })

  test('display math and the other delimiters are as before', () => {
    expect(normalizeMathDelimiters('$$\nx^2\n$$')).toBe('$$\nx^2\n$$')
    expect(normalizeMathDelimiters('inline $$y$$ and $z$')).toBe('inline $$y$$ and $$z$$')
    expect(normalizeMathDelimiters('a \\(x^2\\) b')).toBe('a $$x^2$$ b')
    expect(rendered('$$\n\\int_0^1 x\\,dx\n$$').display).toBe(1)
    expect(rendered('\\[\\int_0^1 x\\,dx\\]').display).toBe(1)
  })

  test('money and math in one reply: only the math is typeset', () => {
    const { formulas, plain } = rendered('The plan costs $5 and the pro plan $10; with $n$ seats the total is $10n$ per month.')
    expect(formulas).toBe(2)
    expect(plain).toContain('costs $5 and the pro plan $10;')
  })
})
