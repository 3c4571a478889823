import { AppError } from '../../lib/errors'
import type { Block, ParsedDocument } from './chunk'
import { guardCompoundFile } from './compound-file'
import { htmlToBlocks } from './html-text'
import { paragraphs } from './text-formats'

// E-mails: an RFC 5322 message (.eml, through postal-mime) or an Outlook item (.msg, through
// @kenjiuno/msgreader), both read into the same shape. Attachments are listed by name and
// never opened: they would be files of their own, with their own checks.

type Mail = {
  subject: string
  from: string
  to: string[]
  cc: string[]
  date: string
  text: string
  html: string
  attachments: string[]
}

/**
 * The message under its subject as a heading: its header fields (From, To, Cc, Date, the names of
 * its attachments), then the plain-text body, or the HTML body read as an HTML file is when the
 * message has no plain text.
 */
function mailBlocks(mail: Mail): ParsedDocument {
  const subject = mail.subject.replace(/\s+/g, ' ').trim() || '(no subject)'
  const headings = [subject]
  const fields = [
    ['From', mail.from],
    ['To', mail.to.join(', ')],
    ['Cc', mail.cc.join(', ')],
    ['Date', mail.date],
    ['Attachments', mail.attachments.join(', ')],
  ].filter(([, value]) => value)
  const blocks: Block[] = [{ text: `# ${subject}`, headings, heading: true }]
  if (fields.length) blocks.push({ text: fields.map(([name, value]) => `${name}: ${value}`).join('\n'), headings })
  const text = mail.text.replace(/\r\n?/g, '\n')
  if (text.trim()) blocks.push(...paragraphs(text).map((p) => ({ text: p, headings })))
  else if (mail.html.trim()) blocks.push(...htmlToBlocks(mail.html).map((b) => ({ ...b, headings: [subject, ...b.headings] })))
  return { blocks, pages: null }
}

const mailbox = (name: string | undefined, address: string | undefined) => {
  const n = name?.trim()
  const a = address?.trim()
  return n && a && n !== a ? `${n} <${a}>` : (n || a || '')
}

export async function parseEml(bytes: Uint8Array): Promise<ParsedDocument> {
  const { default: PostalMime } = await import('postal-mime')
  type Address = NonNullable<Awaited<ReturnType<typeof PostalMime.parse>>['from']>
  const addresses = (list: Address[] | undefined) =>
    (list ?? []).flatMap((a) => (a.group ? a.group.map((m) => mailbox(m.name, m.address)) : [mailbox(a.name, a.address)])).filter(Boolean)
  let email: Awaited<ReturnType<typeof PostalMime.parse>>
  try {
    email = await PostalMime.parse(bytes, { maxNestingDepth: 50, attachmentEncoding: 'arraybuffer' })
  } catch {
    throw new AppError('SOURCE_UNREADABLE')
  }
  return mailBlocks({
    subject: email.subject ?? '',
    from: addresses(email.from ? [email.from] : []).join(', '),
    to: addresses(email.to),
    cc: addresses(email.cc),
    // The header as written keeps the sender's time zone.
    date: email.headers.find((h) => h.key === 'date')?.value.trim() ?? email.date ?? '',
    text: email.text ?? '',
    html: email.html ?? '',
    attachments: email.attachments.filter((a) => a.disposition !== 'inline' && !a.related).map((a) => a.filename || a.mimeType),
  })
}

/** The character sets of Windows code pages that HTML bodies of Outlook items are written in; others are read as UTF-8. */
const CODEPAGES: Record<number, string> = { 65001: 'utf-8', 20127: 'us-ascii', 932: 'shift_jis', 936: 'gbk', 949: 'euc-kr', 950: 'big5', 20866: 'koi8-r', 51932: 'euc-jp', 50220: 'iso-2022-jp' }

function decodeCodepage(bytes: Uint8Array, codepage: number | undefined) {
  const label = !codepage ? 'utf-8' : CODEPAGES[codepage] ?? (codepage >= 1250 && codepage <= 1258 ? `windows-${codepage}` : codepage > 28590 && codepage < 28606 ? `iso-8859-${codepage - 28590}` : 'utf-8')
  try {
    return new TextDecoder(label).decode(bytes)
  } catch {
    return new TextDecoder().decode(bytes)
  }
}

export async function parseMsg(bytes: Uint8Array): Promise<ParsedDocument> {
  guardCompoundFile(bytes)
  const { default: MsgReader } = await import('@kenjiuno/msgreader')
  let data: ReturnType<InstanceType<typeof MsgReader>['getFileData']>
  try {
    data = new MsgReader(bytes.slice().buffer).getFileData()
  } catch {
    throw new AppError('SOURCE_UNREADABLE')
  }
  if (data.error || data.dataType !== 'msg') throw new AppError('SOURCE_UNREADABLE')
  const recipients = (type: 'to' | 'cc') =>
    (data.recipients ?? []).filter((r) => (r.recipType ?? 'to') === type).map((r) => mailbox(r.name, r.smtpAddress || r.email))
  return mailBlocks({
    subject: data.subject ?? '',
    from: mailbox(data.senderName, data.senderSmtpAddress || data.senderEmail),
    to: recipients('to'),
    cc: recipients('cc'),
    date: data.clientSubmitTime ?? data.messageDeliveryTime ?? '',
    text: data.body ?? '',
    html: data.bodyHtml ?? (data.html ? decodeCodepage(data.html, data.internetCodepage) : ''),
    attachments: (data.attachments ?? []).filter((a) => !a.attachmentHidden).map((a) => a.fileName || a.fileNameShort || a.name || 'attachment'),
  })
}
