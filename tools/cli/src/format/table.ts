import { cellText, valueAtPath, type ApiRecord } from './values';

const MAX_CELL_WIDTH = 40;

/** A cell on one line: line breaks and tabs shown as spaces, long values cut with an ellipsis. */
export function tableCell(value: unknown, maxWidth = MAX_CELL_WIDTH): string {
  const text = cellText(value).replace(/[\r\n\t]+/g, ' ');
  const chars = Array.from(text);
  return chars.length > maxWidth ? `${chars.slice(0, maxWidth - 1).join('')}…` : text;
}

/**
 * A plain-text table: a header row of the column names, a dashed rule, then one row per record;
 * columns separated by two spaces and padded to the widest cell (measured in code points).
 */
export function formatTable(records: ApiRecord[], columns: string[], maxWidth = MAX_CELL_WIDTH): string {
  const rows = records.map((record) => columns.map((column) => tableCell(valueAtPath(record, column), maxWidth)));
  const widths = columns.map((column, i) => Math.max(Array.from(column).length, ...rows.map((row) => Array.from(row[i]).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i] - Array.from(cell).length)))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

/** One record as a two-column FIELD / VALUE table (every scalar leaf as a dot path). */
export function formatRecordTable(fields: Map<string, unknown>): string {
  const records = [...fields].map(([field, value]) => ({ field, value }));
  return formatTable(records, ['field', 'value'], 80);
}
