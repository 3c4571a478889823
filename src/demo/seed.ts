/**
 * Fills a fresh demo instance through Kontor's own API, as a person would: the organisation and
 * its admin, the demo provider and its models, a member (invited and accepted) and an open
 * invitation, prompts, agents, and a chat with the sample document and a first cited answer.
 * The accounts are kept in the data directory, so that a second start shows the same ones.
 */
import { SAMPLE_DOCUMENT } from './content'

export type DemoAccount = { name: string; email: string; password: string }
export type DemoAccounts = { admin: DemoAccount; member: DemoAccount }

type Fetch = (request: Request) => Response | Promise<Response>

/** A small API client that keeps its session cookie, like a browser. */
function apiClient(fetchApp: Fetch, baseUrl: string) {
  let cookie = ''
  return async function call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const isForm = body instanceof FormData
    const headers: Record<string, string> = { ...(cookie && { cookie }), ...(body !== undefined && !isForm && { 'content-type': 'application/json' }) }
    const response = await fetchApp(new Request(`${baseUrl}/api${path}`, { method, headers, body: isForm ? body : body === undefined ? undefined : JSON.stringify(body) }))
    const set = response.headers.getSetCookie().map((line) => line.split(';')[0]!).filter((pair) => !pair.endsWith('='))
    if (set.length) cookie = set.join('; ')
    if (path.endsWith('/messages')) {
      // A chat reply streams: read it to its end so that it is stored before going on.
      await response.text()
      return undefined as T
    }
    const text = await response.text()
    if (!response.ok) throw new Error(`demo setup: ${method} ${path} answered ${response.status} ${text.slice(0, 300)}`)
    return (text ? JSON.parse(text) : undefined) as T
  }
}

/** A password that meets the rules (upper and lower case, digits) and is new for every demo. */
const newPassword = () => `Demo-${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}-7`

const PROMPTS = [
  { title: 'Summarise for management', content: 'Summarise the following for our management in five bullet points, with the decision needed at the end:\n\n{{text}}' },
  { title: 'Polite reminder e-mail', content: 'Write a short, friendly e-mail to {{name}} reminding them of {{topic}}, due on {{date}}.' },
  { title: 'Explain like a colleague', content: 'Explain {{concept}} to a new colleague without jargon, with one example from our daily work.' },
]

const AGENTS = [
  { name: 'Writing coach', instructions: 'You help the team write clear, short texts. Point out long sentences and jargon, and offer a better version.' },
  { name: 'Research assistant', instructions: 'You research questions on the web and in attached files, and always cite your sources.' },
]

export async function seedDemo(fetchApp: Fetch, baseUrl: string): Promise<DemoAccounts> {
  const admin: DemoAccount = { name: 'Anna Admin', email: 'anna.admin@example.com', password: newPassword() }
  const member: DemoAccount = { name: 'Max Member', email: 'max.member@example.com', password: newPassword() }
  const asAdmin = apiClient(fetchApp, baseUrl)
  await asAdmin('POST', '/auth/register', {
    email: admin.email,
    name: admin.name,
    organizationName: 'Demo GmbH',
    password: admin.password,
    passwordConfirmation: admin.password,
    termsAccepted: true,
    locale: 'en',
  })
  await asAdmin('POST', '/auth/login', { email: admin.email, password: admin.password })

  await asAdmin('POST', '/models/providers/permitted', { providerId: 'demo', termsAccepted: true })
  const chat = await asAdmin<{ id: string }>('POST', '/models/permitted', { modelId: 'demo/demo-assistant' })
  const embedding = await asAdmin<{ id: string }>('POST', '/models/permitted', { modelId: 'demo/demo-embedding' })
  await asAdmin('PUT', '/models/organization/default', { id: chat.id })
  await asAdmin('PUT', '/models/embedding', { id: embedding.id })

  // Without SMTP the invitation is kept in the outbox and its link comes back to the admin.
  const invite = await asAdmin<{ acceptUrl?: string }>('POST', '/invites', { email: member.email, role: 'user', locale: 'en' })
  const token = invite.acceptUrl && new URL(invite.acceptUrl).searchParams.get('token')
  if (!token) throw new Error('demo setup: the invitation came back without its link')
  await apiClient(fetchApp, baseUrl)('POST', '/invites/accept', { token, name: member.name, password: member.password, passwordConfirmation: member.password })
  // One invitation stays open, to follow from the mail page.
  await asAdmin('POST', '/invites', { email: 'lena.lead@example.com', role: 'admin', locale: 'en' })

  for (const prompt of PROMPTS) await asAdmin('POST', '/prompts', prompt)
  for (const agent of AGENTS) await asAdmin('POST', '/agents', { ...agent, modelId: chat.id })

  const thread = await asAdmin<{ id: string }>('POST', '/threads', { modelId: chat.id })
  const form = new FormData()
  form.append('file', new File([SAMPLE_DOCUMENT.text], SAMPLE_DOCUMENT.name, { type: 'text/markdown' }))
  form.append('description', SAMPLE_DOCUMENT.description)
  await asAdmin('POST', `/threads/${thread.id}/sources/file`, form)
  await waitForSources(() => asAdmin<Array<{ status: string }>>('GET', `/threads/${thread.id}/sources`))
  await asAdmin('POST', `/threads/${thread.id}/messages`, { content: 'How much does the travel policy refund for hotels?' })
  return { admin, member }
}

/** Processing runs in the background; the first question waits for it (well under a second here, a minute at most). */
async function waitForSources(list: () => Promise<Array<{ status: string }>>) {
  const deadline = Date.now() + 60_000
  for (let wait = 50; Date.now() < deadline; wait = Math.min(wait * 2, 1000)) {
    const sources = await list()
    if (sources.some((s) => s.status === 'failed')) throw new Error('demo setup: the sample document could not be processed')
    if (sources.every((s) => s.status === 'ready')) return
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
  throw new Error('demo setup: the sample document was not processed within a minute')
}
