import type { CommandContext } from '../context';
import { csvRecord, csvRow } from '../format/csv';
import { flattenRecord } from '../format/values';
import { openOutput } from '../output';
import { startProgress } from '../progress';
import { resourceSpec } from '../resources';
import { listRecords } from './list';

export interface ExportOptions {
  format: 'ndjson' | 'csv';
  out?: string;
  filter?: Record<string, string>;
  pageSize?: number;
  columns?: string[];
}

/**
 * `erp export <resource>`: every record, streamed page by page to NDJSON (one JSON object per
 * line) or CSV. CSV columns are `--columns` or the first record's fields as dot paths; arrays are
 * one JSON cell. Progress (records, total, rate) goes to stderr on a terminal only.
 */
export async function exportCommand(context: CommandContext, resource: string, options: ExportOptions): Promise<void> {
  const spec = resourceSpec(resource);
  const out = await openOutput(options.out, context.stdout);
  const progress = startProgress(`Exporting ${spec.name}`, 'records', context.stderr);
  let total: number | undefined;
  let columns = options.columns;
  let count = 0;
  try {
    if (options.format === 'csv' && columns) await out.write(csvRow(columns));
    for await (const record of listRecords(context, spec, {
      filter: options.filter,
      pageSize: options.pageSize,
      onPage: (page) => {
        total = page.totalCount ?? total;
      },
    })) {
      if (options.format === 'csv') {
        if (!columns) {
          columns = [...flattenRecord(record).keys()];
          await out.write(csvRow(columns));
        }
        await out.write(csvRecord(record, columns));
      } else {
        await out.write(`${JSON.stringify(record)}\n`);
      }
      count++;
      progress.update(count, total);
    }
    progress.update(count, Math.max(count, total ?? 0));
  } finally {
    progress.stop();
    await out.close();
  }
  if (context.stderr.isTTY) context.stderr.write(`Exported ${count} ${spec.name}${options.out ? ` to ${options.out}` : ''}\n`);
}
