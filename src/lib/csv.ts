/**
 * A cell as spreadsheets read it safely: quoted when it holds a separator, a quote or a line
 * break, and prefixed with ' when it starts like a formula (= + - @, tab, carriage return).
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value)
  if (typeof value !== 'number' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** Rows (the first the header) as a CSV document with CRLF line ends. */
export const csvDocument = (rows: Array<Array<string | number | null>>) => `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`
