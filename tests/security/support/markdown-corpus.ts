import { run } from './xss'

/**
 * Payloads for text that is rendered as markdown (a model's reply) or shown as typed (the user's
 * message). `source` is what is written; `shows` is what a reader must see of it in the rendered
 * reply (the source itself unless markdown turns it into something else, e.g. a link's text).
 */
export type MarkdownPayload = { id: number; source: string; shows?: string }

const b64 = (text: string) => Buffer.from(text).toString('base64')

export const MARKDOWN_PAYLOADS: MarkdownPayload[] = [
  // Raw HTML, which a reply shows as text.
  { id: 1, source: `<script>${run(1)}</script>` },
  { id: 2, source: `<img src=x onerror=${run(2)}>` },
  { id: 3, source: `<svg onload=${run(3)}>` },
  { id: 4, source: `<svg><script>${run(4)}</script></svg>` },
  { id: 5, source: `<iframe srcdoc="<script>${run(5)}</script>"></iframe>` },
  { id: 6, source: `<iframe src="javascript:${run(6)}"></iframe>` },
  { id: 7, source: `<a href="javascript:${run(7)}">raw link 7</a>` },
  { id: 8, source: `<ScRiPt>${run(8)}</sCrIpT>` },
  { id: 9, source: `<IMG SRC=x OnErRoR=${run(9)}>` },
  { id: 10, source: `<img/src=x/onerror=${run(10)}>` },
  { id: 11, source: `<details open ontoggle=${run(11)}>details 11</details>` },
  { id: 12, source: `<body onload=${run(12)}>` },
  { id: 13, source: `<math><mtext><table><mglyph><style><img src=x onerror=${run(13)}>` },
  { id: 14, source: `<noscript><p title="</noscript><img src=x onerror=${run(14)}>">` },
  { id: 15, source: `<!--<img src="--><img src=x onerror=${run(15)}>-->` },
  { id: 16, source: `<form><button formaction=javascript:${run(16)}>form 16</button></form>` },
  { id: 17, source: `<object data="javascript:${run(17)}"></object>` },
  { id: 18, source: `<embed src="javascript:${run(18)}">` },
  { id: 19, source: `<meta http-equiv="refresh" content="0;url=javascript:${run(19)}">` },
  { id: 20, source: `<base href="javascript:${run(20)}//">` },
  { id: 21, source: `<a href="&#106;avascript:${run(21)}">entity link 21</a>` },
  { id: 22, source: `<img src=x onerror=&#x78;&#x73;&#x73;Hit(22),alert(22)>` },
  { id: 23, source: `<img src=x onerror=\\u0078ssHit(23),alert(23)>` },
  { id: 24, source: `<svg><a xlink:href="javascript:${run(24)}"><text>svg 24</text></a></svg>` },
  { id: 25, source: `<a href="data:text/html,<script>${run(25)}</script>">data 25</a>` },
  { id: 26, source: `<style>@import 'javascript:${run(26)}';</style>` },
  { id: 27, source: `</script><script>${run(27)}</script>` },
  // Attribute breakouts.
  { id: 28, source: `"><img src=x onerror=${run(28)}>` },
  { id: 29, source: `'><svg onload=${run(29)}>` },
  { id: 30, source: `" autofocus onfocus="${run(30)}` },
  // HTML entities, which markdown decodes into text.
  { id: 31, source: `&lt;img src=x onerror=${run(31)}&gt;`, shows: `<img src=x onerror=${run(31)}>` },
  { id: 32, source: `&#60;script&#62;${run(32)}&#60;/script&#62;`, shows: `<script>${run(32)}</script>` },
  // Markdown links and images with script-capable addresses.
  { id: 33, source: `[markdown link 33](javascript:${run(33)})`, shows: 'markdown link 33' },
  { id: 34, source: `[mixed case 34](JaVaScRiPt:${run(34)})`, shows: 'mixed case 34' },
  { id: 35, source: `[entity colon 35](javascript&#58;${run(35)})`, shows: 'entity colon 35' },
  { id: 36, source: `[tab entity 36](java&#x09;script:${run(36)})`, shows: 'tab entity 36' },
  { id: 37, source: `[angle 37](<javascript:${run(37)}>)`, shows: 'angle 37' },
  { id: 38, source: `[data link 38](data:text/html;base64,${b64(`<script>${run(38)}</script>`)})`, shows: 'data link 38' },
  { id: 39, source: `[vbscript 39](vbscript:${run(39)})`, shows: 'vbscript 39' },
  { id: 40, source: `[reference 40][r40]\n\n[r40]: javascript:${run(40)}`, shows: 'reference 40' },
  { id: 41, source: `[title 41](https://example.com/41 "\\" onmouseover=\\"${run(41)}")`, shows: 'title 41' },
  { id: 42, source: `![image 42](javascript:${run(42)})`, shows: 'Image: image 42' },
  { id: 43, source: `![alt" onerror="${run(43)}](https://example.com/43.png)`, shows: `Image: alt" onerror="${run(43)}` },
  // Autolinks.
  { id: 44, source: `<javascript:${run(44)}>`, shows: `javascript:${run(44)}` },
  { id: 45, source: `<https://a.example/45"onmouseover="${run(45)}>`, shows: `https://a.example/45"onmouseover="${run(45)}` },
  { id: 46, source: `www.example.com/46"><img src=x onerror=${run(46)}>` },
  // Code, whose text must stay text, also once highlighted.
  { id: 47, source: `\`\`\`html\n</code></pre><img src=x onerror=${run(47)}>\n\`\`\``, shows: `</code></pre><img src=x onerror=${run(47)}>` },
  { id: 48, source: `\`\`\`js\n</script><script>${run(48)}</script>\n\`\`\``, shows: `</script><script>${run(48)}</script>` },
  { id: 49, source: `~~~"><svg/onload=${run(49)}>\nfence 49\n~~~`, shows: `"><svg/onload=${run(49)}>` },
  { id: 50, source: `\`<img src=x onerror=${run(50)}>\``, shows: `<img src=x onerror=${run(50)}>` },
  // Math (KaTeX without trust: a command that would make a link or markup shows as its name).
  { id: 51, source: `$$\\href{javascript:${run(51)}}{math link 51}$$`, shows: '\\href' },
  { id: 52, source: `$$\\url{javascript:${run(52)}}$$`, shows: '\\url' },
  { id: 53, source: `$$\\htmlId{x" onmouseover="${run(53)}}{y53}$$`, shows: '\\htmlId' },
  { id: 54, source: `$$\\text{<img src=x onerror=${run(54)}>}$$`, shows: `<img src=x onerror=${run(54)}>` },
  // Template-looking text.
  { id: 55, source: `{{constructor.constructor('${run(55)}')()}}` },
  { id: 56, source: `\${${run(56)}} #{${run(56)}}` },
  // Markup inside markdown structures.
  { id: 57, source: `| cell 57 |\n| --- |\n| <img src=x onerror=${run(57)}> |`, shows: `<img src=x onerror=${run(57)}>` },
  { id: 58, source: `# <svg onload=${run(58)}>`, shows: `<svg onload=${run(58)}>` },
  { id: 59, source: `*<img src=x onerror=${run(59)}>*`, shows: `<img src=x onerror=${run(59)}>` },
  { id: 60, source: `> <iframe src=javascript:${run(60)}>`, shows: `<iframe src=javascript:${run(60)}>` },
]

/** How many of the payloads are math (`$$…$$` within a line), each one KaTeX formula once rendered. */
export const MATH_FORMULAS = MARKDOWN_PAYLOADS.filter((p) => p.source.startsWith('$$')).length

/** The payloads as one message, each in a paragraph of its own. */
export const markdownCorpus = () => MARKDOWN_PAYLOADS.map((p) => p.source).join('\n\n')

/** What the rendered reply must show of each payload. */
export const markdownShows = () => MARKDOWN_PAYLOADS.map((p) => p.shows ?? p.source)
