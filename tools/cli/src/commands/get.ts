import type { CommandContext } from '../context';
import { formatRecordTable } from '../format/table';
import { flattenRecord } from '../format/values';
import { resourceSpec } from '../resources';

/** `erp get <resource> <id>`: the record as indented JSON, or a FIELD/VALUE table of its leaves. */
export async function getCommand(
  context: CommandContext,
  resource: string,
  id: string,
  options: { output: 'json' | 'table'; query?: Record<string, string> },
): Promise<void> {
  const spec = resourceSpec(resource);
  const path = spec.itemPath(id);
  const record = await (await context.api()).get(path, options.query);
  context.stdout.write(options.output === 'table' ? formatRecordTable(flattenRecord(record)) : `${JSON.stringify(record, null, 2)}\n`);
}
