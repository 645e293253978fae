/**
 * CSV for the audit export, built in the browser from the pages already fetched. Every cell is
 * quoted (RFC 4180: inner quotes doubled), and a cell a spreadsheet would read as a formula (one
 * starting with = + - @, or a tab or carriage return that some programs skip before one) gets a
 * leading apostrophe, so opening the file never runs what an event's data contains (CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** Rows of cells as CSV text: CRLF line ends, the first row the header. */
export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
