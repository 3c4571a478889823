/**
 * What the demo serves besides the model: a small built-in web (pages the search index points
 * to and website_content can read) and the sample document attached to a chat. Nothing here is
 * fetched from outside; the pages live on the demo server at /pages/<slug>.
 */
export type DemoPage = { slug: string; title: string; summary: string; paragraphs: string[] }

export const DEMO_PAGES: DemoPage[] = [
  {
    slug: 'kontor-guide',
    title: 'Kontor guide: chats, prompts and agents',
    summary: 'How an organisation works with Kontor: chats with models, a shared prompt library, agents and files as sources.',
    paragraphs: [
      'Kontor is a workspace in which the members of an organisation chat with language models. Admins choose which providers and models are allowed and who may use them.',
      'The prompt library keeps prompts that work, with {{variables}} that are filled in when a prompt is used. Agents combine a name, instructions and a model.',
      'Files attached to a chat become sources: they are split into passages, embedded and searched when a question may be answered from them. Answers cite the file and page they rely on.',
    ],
  },
  {
    slug: 'vector-search',
    title: 'Vector search in SQLite and libSQL',
    summary: 'libSQL stores embeddings in F32_BLOB columns and ranks them with vector_distance_cos; FTS5 adds keyword search.',
    paragraphs: [
      'An embedding turns a passage of text into a vector. Passages that mean similar things get vectors that point in similar directions, which cosine similarity measures.',
      'libSQL keeps vectors in F32_BLOB columns. An exact search orders rows by vector_distance_cos and is fast enough for the few thousand passages of one chat.',
      'Keyword search with FTS5 finds exact names and numbers that embeddings blur. Combining both ranks (hybrid search) gives the most robust results.',
    ],
  },
  {
    slug: 'remote-work-policy',
    title: 'Writing a remote work policy that people follow',
    summary: 'Core hours, equipment, security and how to keep a distributed team informed, with examples from small companies.',
    paragraphs: [
      'A good remote work policy is short: it names core hours, who pays for equipment, how devices are secured and how the team stays informed.',
      'Small companies do well with two or three fixed meeting slots a week and written decisions that everyone can find later.',
      'Security rules belong in the policy: encrypted disks, a password manager and updates installed within a week.',
    ],
  },
  {
    slug: 'project-kickoff',
    title: 'Project kick-off checklist',
    summary: 'Goals, stakeholders, risks, a first milestone and a communication plan: what to settle in the first meeting.',
    paragraphs: [
      'Settle the goal in one sentence, name the people who decide and those who need to be informed, and agree on a first milestone within four weeks.',
      'List the three biggest risks with an owner each. Write down how the team communicates: one channel for questions, one place for decisions.',
    ],
  },
  {
    slug: 'markdown-basics',
    title: 'Markdown basics: headings, lists, tables and code',
    summary: 'The markdown that chat assistants use: headings, bullet lists, tables, fenced code and LaTeX math.',
    paragraphs: [
      'Headings start with #, lists with - or 1., and tables separate their cells with |. Fenced code blocks name their language after three backticks.',
      'Math is written in LaTeX between dollar signs: $E = mc^2$ inline, or on its own line between $$.',
    ],
  },
  {
    slug: 'energy-saving-office',
    title: 'Ten ways to save energy in the office',
    summary: 'Heating schedules, LED lighting, switching off monitors and servers, and measuring what the office uses.',
    paragraphs: [
      'Most of an office’s energy goes to heating, cooling and lighting. A heating schedule that follows the working hours saves more than any single device.',
      'LED lighting with presence sensors, monitors that sleep after ten minutes and a monthly look at the meter readings make the savings visible.',
    ],
  },
]

export const GUIDE_SLUG = 'kontor-guide'

/** One result in SearXNG's JSON answer, pointing at a page of the built-in web. */
export type DemoSearchResult = { title: string; url: string; content: string }

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])

/** The built-in web's best matches for a query (word overlap); a query matching nothing still gets the guide and two more. */
export function searchDemoPages(query: string, pagesUrl: string, count = 5): DemoSearchResult[] {
  const asked = words(query)
  const scored = DEMO_PAGES.map((page, order) => {
    const own = words(`${page.title} ${page.summary} ${page.paragraphs.join(' ')}`)
    return { page, order, score: [...asked].filter((w) => own.has(w)).length }
  })
  const ranked = scored.sort((a, b) => b.score - a.score || a.order - b.order)
  const hits = ranked.filter((r) => r.score > 0)
  return (hits.length ? hits : ranked.slice(0, 3)).slice(0, count).map(({ page }) => ({ title: page.title, url: `${pagesUrl}/${page.slug}`, content: page.summary }))
}

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

/** A page of the built-in web as HTML, readable by the website_content tool. */
export function demoPageHtml(page: DemoPage): string {
  const body = page.paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(page.title)}</title></head>
<body><main><article><h1>${escape(page.title)}</h1><p><em>${escape(page.summary)}</em></p>
${body}</article></main></body></html>`
}

/** The sample document the demo attaches to a chat. */
export const SAMPLE_DOCUMENT = {
  name: 'travel-policy.md',
  description: 'Travel and expenses policy of the demo organisation',
  text: `# Travel and expenses policy 2026

This policy applies to every employee of Demo GmbH who travels for work.

## Booking

Trips are booked through the office at least two weeks ahead. Trains are preferred over flights
for any journey under six hours. Second class is the rule; first class is allowed for trips
longer than four hours.

## Hotels

Hotel costs are refunded up to 150 euros per night in Germany and up to 200 euros per night
abroad. Breakfast is included in that limit. Longer stays than five nights need the approval
of the team lead.

## Meals and daily allowance

The daily allowance is 28 euros for a full day away and 14 euros for the day of arrival and the
day of departure. Business meals with customers are refunded in full with the receipt and the
names of the guests.

## Expense reports

Expense reports are handed in within 30 days of the trip's end, with every receipt as a scan or
photo. Refunds are paid with the next salary.
`,
}
