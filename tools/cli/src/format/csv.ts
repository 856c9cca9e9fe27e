import { cellText, valueAtPath, type ApiRecord } from './values';

/**
 * RFC 4180: a field with a comma, a double quote, CR or LF is enclosed in double quotes, with each
 * double quote doubled. Leading/trailing spaces are kept as they are (they are data).
 */
export function csvField(value: unknown): string {
  const text = cellText(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (CRLF-terminated, as RFC 4180 asks). */
export function csvRow(fields: unknown[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** A record's line for the given columns (dot paths); absent fields are empty. */
export function csvRecord(record: ApiRecord, columns: string[]): string {
  return csvRow(columns.map((column) => valueAtPath(record, column)));
}
