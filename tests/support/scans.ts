import { createCanvas } from '@napi-rs/canvas'

/**
 * A picture of a printed page as a scanner makes it: black serif text on a slightly grey, noisy
 * page at 200 dpi (11 pt text is about 30 pixels high), as PNG or JPEG.
 */
export function makeScan(lines: string[], format: 'png' | 'jpeg' = 'png'): Uint8Array<ArrayBuffer> {
  const width = 1654 // A4 at 200 dpi
  const height = 160 + lines.length * 56
  const canvas = createCanvas(width, height)
  const g = canvas.getContext('2d')
  g.fillStyle = '#f4f4f0'
  g.fillRect(0, 0, width, height)
  // Scanner dust: a fixed pattern of specks, so that every run reads the same picture.
  g.fillStyle = '#b0b0b0'
  for (let i = 0; i < 400; i++) g.fillRect((i * 7919) % width, (i * 104729) % height, 2, 2)
  g.fillStyle = '#111'
  g.font = '30px serif'
  lines.forEach((line, i) => g.fillText(line, 130, 110 + i * 56))
  const bytes = format === 'png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg', 90)
  return new Uint8Array(bytes)
}

const latin1 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff)
const binary = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join('')

/**
 * A PDF whose pages are scans: each `scan` page shows a JPEG over the whole page and has no text
 * layer; a `text` page has ordinary text (Helvetica), as a mixed document has.
 */
export function makeScannedPdf(pages: Array<{ scan: Uint8Array; width: number; height: number } | { text: string[] }>): Uint8Array<ArrayBuffer> {
  const objects: string[] = []
  const add = (body: string) => objects.push(body) // object number = index + 1
  add('<< /Type /Catalog /Pages 2 0 R >>')
  add('')
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
  const kids: number[] = []
  for (const page of pages) {
    if ('scan' in page) {
      add(`<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${page.scan.length} >>\nstream\n${binary(page.scan)}\nendstream`)
      const image = objects.length
      // The picture fills an A4 width; its height keeps the picture's proportions.
      const h = Math.round((595 * page.height) / page.width)
      const draw = `q 595 0 0 ${h} 0 ${842 - h} cm /Im1 Do Q`
      add(`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`)
      add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im1 ${image} 0 R >> >> /Contents ${objects.length} 0 R >>`)
    } else {
      const stream = `BT /F1 11 Tf 14 TL 56 780 Td ${page.text.map((l) => `(${l.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj T*`).join(' ')} ET`
      add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`)
      add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${objects.length} 0 R >>`)
    }
    kids.push(objects.length)
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return latin1(out)
}

/** Width and height of a scan made by makeScan. */
export const scanSize = (lines: string[]) => ({ width: 1654, height: 160 + lines.length * 56 })
