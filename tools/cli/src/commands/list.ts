import type { PageProgress } from '../api';
import type { CommandContext } from '../context';
import { formatTable } from '../format/table';
import { withoutListMetadata, type ApiRecord } from '../format/values';
import { openOutput } from '../output';
import { resourceSpec, type ResourceSpec } from '../resources';

export interface ListOptions {
  filter?: Record<string, string>;
  pageSize?: number;
  limit?: number;
  output: 'json' | 'table';
  columns?: string[];
}

/** Every record of a resource's list, in the API's order, without the per-record paging metadata. */
export async function* listRecords(
  context: CommandContext,
  spec: ResourceSpec,
  options: { filter?: Record<string, string>; pageSize?: number; onPage?(page: PageProgress): void },
): AsyncIterable<ApiRecord> {
  const api = await context.api();
  const filters = options.filter ?? {};
  const records =
    spec.family === 'v1'
      ? api.listV1(spec.listPath, { filters, pageSize: options.pageSize, onPage: options.onPage })
      : api.listV3(spec.listPath, { ...filters, ...(options.pageSize ? { pageSize: String(options.pageSize) } : {}) }, { onPage: options.onPage });
  for await (const record of records) yield withoutListMetadata(record);
}

/**
 * `erp list <resource>`: JSON is an array with one record per line, written as pages arrive; a
 * table needs every row for its widths, so it is written at the end.
 */
export async function listCommand(context: CommandContext, resource: string, options: ListOptions): Promise<void> {
  const spec = resourceSpec(resource);
  const out = await openOutput(undefined, context.stdout);
  const rows: ApiRecord[] = [];
  let count = 0;
  for await (const record of listRecords(context, spec, options)) {
    if (options.limit !== undefined && count >= options.limit) break;
    if (options.output === 'table') rows.push(record);
    else await out.write(`${count === 0 ? '[\n' : ',\n'}${JSON.stringify(record)}`);
    count++;
  }
  if (options.output === 'table') await out.write(formatTable(rows, options.columns ?? spec.tableColumns));
  else await out.write(count === 0 ? '[]\n' : '\n]\n');
}
