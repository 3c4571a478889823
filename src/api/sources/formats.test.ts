import { describe, expect, test } from 'bun:test'
import { unzipSync, zipSync } from 'fflate'
import { makeDocx, makeMsg, makeOfficeBomb, makePdf, makePptx, makeXlsx, type XlsxCell } from '../../../tests/support/documents'
import { AppError } from '../../lib/errors'
import { chunkBlocks } from './chunk'
import { detectKind } from './file-type'
import { MAX_SHEET_COLUMNS, MAX_SHEET_ROWS, MAX_WORKBOOK_CELLS, MAX_WORKBOOK_CHARS } from './office'
import { parseDocument } from './parse'

// PowerPoint, Excel and e-mail files read into passages (the HTTP path is in sources.test.ts).

const texts = (doc: Awaited<ReturnType<typeof parseDocument>>) => doc.blocks.map((b) => b.text)
const codeOf = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return error instanceof AppError ? error.code : String(error)
  }
  return null
}
const failure = async (run: () => Promise<unknown>) => run().then(() => null, (error) => (error instanceof AppError ? error.code : String(error)))

const EML = [
  'Return-Path: <mia@acme.test>',
  'From: Mia Example <mia@acme.test>',
  'To: tom@acme.test, "Ann Berg" <ann@acme.test>',
  'Cc: Ops: bob@acme.test, eve@acme.test;',
  'Date: Mon, 2 Mar 2026 10:15:00 +0100',
  'Subject: =?UTF-8?Q?Kran=C3=BCbergabe?= on Monday',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="outer"',
  '',
  '--outer',
  'Content-Type: multipart/alternative; boundary="alt"',
  '',
  '--alt',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Hello Tom,',
  '',
  'the crane is handed over on Monday at 7 o=E2=80=99clock.',
  '',
  'Mia',
  '--alt',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p>Hello Tom,</p><p>the crane (HTML version)</p>',
  '--alt--',
  '--outer',
  'Content-Type: application/pdf; name="handover.pdf"',
  'Content-Disposition: attachment; filename="handover.pdf"',
  'Content-Transfer-Encoding: base64',
  '',
  'JVBERi0xLjQK',
  '--outer--',
  '',
].join('\r\n')

describe('PPTX', () => {
  const deck = makePptx([
    { title: 'Harbour project', boxes: [['Kick-off meeting', 'March 2026']], notes: 'Greet the harbour master first.' },
    { title: 'Budget', boxes: [['Costs by year:']], table: [['Year', 'Cost'], ['2026', '1.2 M€'], ['2027', '0.8 M€']] },
    { boxes: [['A slide without a title.'], ['A second text box.']] },
  ])

  test('is recognised by its presentation part; slides come in the presentation’s order with headings, text, tables and notes', async () => {
    expect(detectKind('deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', deck).kind).toBe('pptx')
    const doc = await parseDocument('pptx', deck)
    expect(doc.pages).toBe(3)
    expect(texts(doc)).toEqual([
      '# Slide 1: Harbour project',
      'Kick-off meeting\nMarch 2026',
      'Speaker notes: Greet the harbour master first.',
      '# Slide 2: Budget',
      'Costs by year:',
      '| Year | Cost |\n| --- | --- |\n| 2026 | 1.2 M€ |\n| 2027 | 0.8 M€ |',
      '# Slide 3',
      'A slide without a title.',
      'A second text box.',
    ])
    expect(doc.blocks.map((b) => b.page)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3])
    // Footers and slide numbers repeat on every slide and are left out; so is the layout's prompt text.
    expect(texts(doc).join('\n')).not.toMatch(/confidential|Click to edit/)
  })

  test('a slide is the page of its passages', async () => {
    const long = (n: number) => `Slide ${n} talks about ${'the quay wall and its anchors '.repeat(40)}`
    const doc = await parseDocument('pptx', makePptx([1, 2, 3, 4].map((n) => ({ title: `Part ${n}`, boxes: [[long(n)]] }))))
    const chunks = chunkBlocks(doc.blocks)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks[0]).toMatchObject({ page: 1, headingPath: 'Slide 1: Part 1' })
    expect(chunks.at(-1)!.pageEnd).toBe(4)
  })
})

describe('XLSX', () => {
  test('each sheet is a Markdown table under its name: strings, numbers, booleans, dates and formulas by their cached value', async () => {
    const book = makeXlsx([
      {
        name: 'Stock',
        rows: [
          ['Item', 'Count', 'Delivered', 'In stock', 'Value'],
          ['Bolt M6', 1200, { date: 46082 }, true, { formula: 'B2*0.1', value: 120 }],
          [{ inline: 'Nut | M6' }, 0.1 + 0.2, { date: 46082.5, time: true }, false, { formula: 'IF(B3>1,"many","few")', value: 'few' }],
          [null, null, null, null, null],
          ['Washer', null, null, null, 7],
        ],
      },
      { name: 'Notes', rows: [['Counted by Tom on Friday.']] },
    ])
    expect(detectKind('stock.xlsx', '', book).kind).toBe('xlsx')
    const doc = await parseDocument('xlsx', book)
    expect(doc.pages).toBeNull()
    expect(texts(doc)).toEqual([
      '# Stock',
      [
        '| Item | Count | Delivered | In stock | Value |',
        '| --- | --- | --- | --- | --- |',
        '| Bolt M6 | 1200 | 2026-03-01 | TRUE | 120 |',
        '| Nut \\| M6 | 0.3 | 2026-03-01 12:00 | FALSE | few |',
        '| Washer |  |  |  | 7 |',
      ].join('\n'),
      '# Notes',
      '| Counted by Tom on Friday. |\n| --- |',
    ])
    expect(doc.blocks[1]!.headings).toEqual(['Stock'])
  })

  test('a long sheet is split into passages that each repeat the header row', async () => {
    const rows: XlsxCell[][] = [['SKU', 'Location'], ...Array.from({ length: 400 }, (_, i) => [`item-${i}`, `warehouse ${i % 7}`])]
    const doc = await parseDocument('xlsx', makeXlsx([{ name: 'Inventory', rows }]))
    const chunks = chunkBlocks(doc.blocks, { overlap: 0 })
    expect(chunks.length).toBeGreaterThan(2)
    for (const c of chunks) expect(c.content).toContain('| SKU | Location |\n| --- | --- |')
    expect(chunks.map((c) => c.content).join('\n')).toContain('| item-399 | warehouse 0 |')
  })

  // Sheets past the limits are large by nature: these tests get more time on a loaded machine.
  test('a sheet past the row or column limit is cut, and its text says so', async () => {
    const tall = Array.from({ length: MAX_SHEET_ROWS + 5 }, (_, i) => [i])
    const wide = [Array.from({ length: MAX_SHEET_COLUMNS + 3 }, (_, i) => `c${i}`)]
    const doc = await parseDocument('xlsx', makeXlsx([{ name: 'Tall', rows: tall }, { name: 'Wide', rows: wide }]))
    const all = texts(doc).join('\n')
    expect(all).toContain(`(This sheet was cut: only its first 10,000 of 10,005 rows were read.)`)
    expect(all).toContain(`| ${MAX_SHEET_ROWS - 1} |`)
    expect(all).not.toContain(`| ${MAX_SHEET_ROWS} |`)
    expect(all).toContain(`(This sheet was cut: only its first ${MAX_SHEET_COLUMNS} columns were read.)`)
    expect(all).toContain(`| c${MAX_SHEET_COLUMNS - 1} |`)
    expect(all).not.toContain(`c${MAX_SHEET_COLUMNS} `)
    // The cut note comes first, right under the sheet's heading.
    expect(texts(doc).slice(0, 2)).toEqual(['# Tall', '(This sheet was cut: only its first 10,000 of 10,005 rows were read.)'])
  }, 30_000)

  test("the workbook's cells are counted across sheets: a later sheet gets what is left", async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, r) => Array.from({ length: 50 }, (_, c) => r * 50 + c))
    expect(MAX_WORKBOOK_CELLS).toBe(100_000)
    const budget = await parseDocument('xlsx', makeXlsx([{ name: 'A', rows: rows(1500) }, { name: 'B', rows: rows(1000) }]))
    expect(texts(budget).filter((t) => t.startsWith('(This sheet was cut'))).toEqual(['(This sheet was cut: only its first 500 of 1,000 rows were read.)'])
    expect(texts(budget).indexOf('(This sheet was cut: only its first 500 of 1,000 rows were read.)')).toBe(texts(budget).indexOf('# B') + 1)
  }, 30_000)

  test('long texts are cut by their characters, so that the workbook stays within what a file may hold', async () => {
    const prose = Array.from({ length: 2000 }, (_, i) => [`${i}:${'x'.repeat(996 - String(i).length)}`])
    const long = await parseDocument('xlsx', makeXlsx([{ name: 'Prose', rows: prose }]))
    const read = Number(/^\(This sheet was cut: only its first ([\d,]+) of 2,000 rows were read\.\)$/.exec(texts(long)[1]!)?.[1]?.replace(',', ''))
    expect(read).toBeGreaterThan(1000)
    const written = texts(long).join('\n')
    expect(written.length).toBeLessThan(MAX_WORKBOOK_CHARS + 1000)
    expect(written).toContain(`| ${read - 1}:x`)
    expect(written).not.toContain(`| ${read}:x`)
  }, 30_000)
})

describe('e-mails', () => {
  test('an EML: subject as the heading, From, To, Cc, Date and attachments, then the plain-text body', async () => {
    const bytes = new TextEncoder().encode(EML)
    expect(detectKind('handover.eml', 'message/rfc822', bytes)).toEqual({ kind: 'eml', mimeType: 'message/rfc822' })
    const doc = await parseDocument('eml', bytes)
    expect(texts(doc)).toEqual([
      '# Kranübergabe on Monday',
      'From: Mia Example <mia@acme.test>\nTo: tom@acme.test, Ann Berg <ann@acme.test>\nCc: bob@acme.test, eve@acme.test\nDate: Mon, 2 Mar 2026 10:15:00 +0100\nAttachments: handover.pdf',
      'Hello Tom,',
      'the crane is handed over on Monday at 7 o’clock.',
      'Mia',
    ])
    expect(doc.blocks.every((b) => b.headings[0] === 'Kranübergabe on Monday')).toBe(true)
  })

  test('an EML with only an HTML body is read as an HTML file is; one in Latin-1 is read too', async () => {
    const html = 'From: a@acme.test\nSubject: Menu\nContent-Type: text/html; charset=iso-8859-1\n\n<h2>Lunch</h2><script>x()</script><p>Soup &amp; bread, 4 \xe4pfel</p>\n'
    const bytes = Uint8Array.from(html, (c) => c.charCodeAt(0))
    expect(detectKind('menu.eml', '', bytes).kind).toBe('eml')
    const doc = await parseDocument('eml', bytes)
    expect(texts(doc)).toEqual(['# Menu', 'From: a@acme.test', '## Lunch', 'Soup & bread, 4 äpfel'])
    expect(doc.blocks.at(-1)!.headings).toEqual(['Menu', 'Lunch'])
  })

  test('an Outlook MSG reads into the same shape', async () => {
    const msg = await makeMsg({
      subject: 'Quarterly numbers',
      from: { name: 'Mia Example', address: 'mia@acme.test' },
      to: [{ name: 'Tom', address: 'tom@acme.test' }, { name: 'Ann Berg', address: 'ann@acme.test', cc: true }],
      date: new Date('2026-03-02T09:15:00Z'),
      body: 'Hello Tom,\r\n\r\nrevenue grew by 12 percent.\r\n\r\nMia',
      attachments: [{ name: 'q3.xlsx', data: new Uint8Array([1, 2, 3]) }],
    })
    expect(detectKind('numbers.msg', 'application/vnd.ms-outlook', msg)).toEqual({ kind: 'msg', mimeType: 'application/vnd.ms-outlook' })
    expect(detectKind('numbers.msg', '', msg).kind).toBe('msg')
    const doc = await parseDocument('msg', msg)
    expect(texts(doc)).toEqual([
      '# Quarterly numbers',
      'From: Mia Example <mia@acme.test>\nTo: Tom <tom@acme.test>\nCc: Ann Berg <ann@acme.test>\nDate: Mon, 02 Mar 2026 09:15:00 GMT\nAttachments: q3.xlsx',
      'Hello Tom,',
      'revenue grew by 12 percent.',
      'Mia',
    ])
  })

  test('an Outlook MSG with only an HTML body in a Windows code page', async () => {
    const html = '<h2>Men\xfc</h2><p>Suppe &amp; Brot f\xfcr 4 \x80</p>'
    const msg = await makeMsg({
      subject: 'Kantine',
      from: { name: 'Küche', address: 'kueche@acme.test' },
      to: [],
      date: new Date('2026-03-02T09:15:00Z'),
      html: { bytes: Uint8Array.from(html, (c) => c.charCodeAt(0)), codepage: 1252 },
    })
    const doc = await parseDocument('msg', msg)
    expect(texts(doc)).toEqual(['# Kantine', 'From: Küche <kueche@acme.test>\nDate: Mon, 02 Mar 2026 09:15:00 GMT', '## Menü', 'Suppe & Brot für 4 €'])
  })
})

describe('refused and failed files', () => {
  test('a file whose content is not what its name says is refused', async () => {
    const docx = makeDocx(['A letter.'])
    const pptx = makePptx([{ title: 'Deck' }])
    const xlsx = makeXlsx([{ name: 'S', rows: [['x']] }])
    const msg = await makeMsg({ subject: 'S', from: { name: 'A', address: 'a@acme.test' }, to: [], date: new Date(), body: 'B' })
    // A compound file without message streams: an old Word or Excel file in the same container.
    const oldDoc = new Uint8Array(4096)
    oldDoc.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
    const cases: Array<[string, Uint8Array | string]> = [
      ['letter.pptx', docx],
      ['letter.xlsx', docx],
      ['deck.xlsx', pptx],
      ['deck.docx', pptx],
      ['sheet.pptx', xlsx],
      ['sheet.docx', xlsx],
      ['any.pptx', zipSync({ 'readme.txt': new Uint8Array([104, 105]) })],
      ['report.pptx', makePdf([['x']])],
      ['mail.msg', EML],
      ['mail.msg', docx],
      ['old.msg', oldDoc],
      ['mail.eml', msg],
      ['mail.eml', docx],
      ['mail.eml', 'Just a note, not an e-mail.\n\nSecond line.'],
      ['mail.eml', 'Subject: hi\nThis line is no header\n\nbody'],
      ['mail.eml', 'X-Custom: only unknown fields\n\nbody'],
      ['mail.eml', 'From: a@acme.test\nSubject: x\n\nbody with a NUL \u0000 byte'],
      ['notes.txt', msg],
    ]
    for (const [name, content] of cases) {
      const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content
      expect({ name, code: codeOf(() => detectKind(name, '', bytes)) }).toEqual({ name, code: 'UNSUPPORTED_FILE_TYPE' })
    }
    // A declared type that contradicts the name.
    expect(codeOf(() => detectKind('deck.pptx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', pptx))).toBe('UNSUPPORTED_FILE_TYPE')
    // An upload without a name is known by its declared type.
    expect(detectKind('upload', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', xlsx).kind).toBe('xlsx')
  })

  test('zip bombs in a PPTX or an XLSX fail before they are unpacked; damaged files fail as unreadable', async () => {
    for (const kind of ['pptx', 'xlsx'] as const) {
      const bomb = makeOfficeBomb(kind, 60)
      expect(bomb.length).toBeLessThan(200 * 1024)
      expect(detectKind(`bomb.${kind}`, '', bomb).kind).toBe(kind)
      expect(await failure(() => parseDocument(kind, bomb))).toBe('SOURCE_TOO_LARGE')
    }
    // More entries than any document needs.
    const many = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`ppt/media/${i}.bin`, new Uint8Array(0)]))
    expect(await failure(() => parseDocument('pptx', makePptx([{ title: 'x' }], many)))).toBe('SOURCE_TOO_LARGE')
    const deck = makePptx([{ title: 'Deck', boxes: [['text']] }])
    expect(await failure(() => parseDocument('pptx', deck.subarray(0, deck.length - 30)))).toBe('SOURCE_UNREADABLE')
    const msg = await makeMsg({ subject: 'S', from: { name: 'A', address: 'a@acme.test' }, to: [], date: new Date(), body: 'B' })
    expect(await failure(() => parseDocument('msg', msg.subarray(0, 1024)))).toBe('SOURCE_UNREADABLE')
  }, 30_000)

  test('an Outlook item whose sectors or directory loop, or whose streams claim more than the file, fails before it is read', async () => {
    const msg = await makeMsg({ subject: 'Loop', from: { name: 'A', address: 'a@acme.test' }, to: [{ name: 'B', address: 'b@acme.test' }], date: new Date(), body: 'Body' })
    expect(await parseDocument('msg', msg)).toBeTruthy()
    const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    const header = view(msg)
    expect(msg[30]).toBe(9) // 512-byte sectors
    const directoryStart = header.getInt32(0x30, true)
    const fatSector = header.getInt32(0x4c, true)
    const entryAt = (i: number) => (directoryStart + 1) * 512 + 128 * i
    const changed = (change: (v: DataView) => void) => {
      const copy = msg.slice()
      change(view(copy))
      return copy
    }
    // The directory's chain of sectors leads back to itself.
    const loopedChain = changed((v) => v.setInt32((fatSector + 1) * 512 + 4 * directoryStart, directoryStart, true))
    expect(await failure(() => parseDocument('msg', loopedChain))).toBe('SOURCE_UNREADABLE')
    // An entry of the directory names itself as its sibling.
    const child = header.getInt32(entryAt(0) + 0x4c, true)
    const loopedTree = changed((v) => v.setInt32(entryAt(child) + 0x48, child, true))
    expect(await failure(() => parseDocument('msg', loopedTree))).toBe('SOURCE_UNREADABLE')
    // A stream claims 2 GB.
    const stream = [1, 2, 3].find((i) => msg[entryAt(i) + 0x42] === 2)!
    const huge = changed((v) => v.setInt32(entryAt(stream) + 0x78, 0x7fffffff, true))
    expect(await failure(() => parseDocument('msg', huge))).toBe('SOURCE_TOO_LARGE')
  })

  test('a slide or sheet listed twice is read once', async () => {
    const relist = (file: Uint8Array, part: string, from: string, to: string) => {
      const files = unzipSync(file)
      files[part] = new TextEncoder().encode(new TextDecoder().decode(files[part]).replace(from, to))
      return zipSync(files)
    }
    const deck = relist(makePptx([{ title: 'Only', boxes: [['Once.']] }]), 'ppt/presentation.xml', '</p:sldIdLst>', '<p:sldId id="900" r:id="rId2"/></p:sldIdLst>')
    expect(texts(await parseDocument('pptx', deck))).toEqual(['# Slide 1: Only', 'Once.'])
    const book = relist(makeXlsx([{ name: 'A', rows: [['x']] }]), 'xl/workbook.xml', '</sheets>', '<sheet name="B" sheetId="9" r:id="rId1"/></sheets>')
    expect(texts(await parseDocument('xlsx', book))).toEqual(['# A', '| x |\n| --- |'])
  })

  test('files without text fail with SOURCE_NO_TEXT', async () => {
    expect(await failure(() => parseDocument('pptx', makePptx([{}, {}])))).toBe('SOURCE_NO_TEXT')
    expect(await failure(() => parseDocument('xlsx', makeXlsx([{ name: 'Empty', rows: [] }])))).toBe('SOURCE_NO_TEXT')
  })
})
