import { describe, expect, test } from 'bun:test'
import { detectKind } from '../../../../src/api/sources/file-type'
import { MAX_FILE_BYTES, MAX_SOURCES_PER_THREAD } from '../../../../src/api/sources/schema'
import { checkFiles, SOURCE_ACCEPT, SOURCE_EXTENSIONS } from './check-files'

const file = (name: string, size = 10) => ({ name, size })

describe('checkFiles', () => {
  test('takes the types the server takes, in any case of the ending', () => {
    const files = ['a.pdf', 'b.DOCX', 'k.pptx', 'l.XLSX', 'm.eml', 'n.msg', 'c.txt', 'd.md', 'e.Markdown', 'f.csv', 'g.html', 'h.htm', 'i.log', 'j.text', 'o.png', 'p.JPG', 'q.jpeg'].map((n) => file(n))
    expect(checkFiles(files, 0)).toEqual({ accepted: files, refused: [] })
  })

  test('refuses other types, files without an ending, too large and empty files, with the server error codes', () => {
    const result = checkFiles([file('clip.mp4'), file('README'), file('notes.pdf.exe'), file('big.pdf', MAX_FILE_BYTES + 1), file('empty.txt', 0), file('ok.txt', MAX_FILE_BYTES)], 0)
    expect(result.accepted.map((f) => f.name)).toEqual(['ok.txt'])
    expect(result.refused).toEqual([
      { name: 'clip.mp4', code: 'UNSUPPORTED_FILE_TYPE' },
      { name: 'README', code: 'UNSUPPORTED_FILE_TYPE' },
      { name: 'notes.pdf.exe', code: 'UNSUPPORTED_FILE_TYPE' },
      { name: 'big.pdf', code: 'FILE_TOO_LARGE' },
      { name: 'empty.txt', code: 'FILE_EMPTY' },
    ])
  })

  test('counts the files already in the chat towards the limit of 20', () => {
    const result = checkFiles([file('a.txt'), file('b.txt'), file('c.txt')], MAX_SOURCES_PER_THREAD - 2)
    expect(result.accepted.map((f) => f.name)).toEqual(['a.txt', 'b.txt'])
    expect(result.refused).toEqual([{ name: 'c.txt', code: 'TOO_MANY_SOURCES' }])
  })

  test('every ending offered is one the server recognises', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0])
    const bytes: Record<string, Uint8Array> = { pdf: new TextEncoder().encode('%PDF-1.4\n'), eml: new TextEncoder().encode('Subject: hello\n\nhello'), png, jpg: jpeg, jpeg }
    for (const extension of SOURCE_EXTENSIONS) {
      // Zips and Outlook items; their checks are the server's own tests'.
      if (['docx', 'pptx', 'xlsx', 'msg'].includes(extension)) continue
      expect(detectKind(`file.${extension}`, '', bytes[extension] ?? new TextEncoder().encode('hello')).kind).toBeTruthy()
    }
    expect(() => detectKind('file.png', '', new Uint8Array([1]))).toThrow()
    expect(() => detectKind('file.mp4', '', new Uint8Array([1]))).toThrow()
    expect(SOURCE_ACCEPT).toBe('.pdf,.docx,.pptx,.xlsx,.eml,.msg,.txt,.text,.log,.md,.markdown,.csv,.html,.htm,.png,.jpg,.jpeg')
  })
})
