import { CliError } from '../cli-error';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';
import { formatRecordTable, formatTable } from '../format/table';
import { type ApiRecord, flattenRecord } from '../format/values';
import { salesOrderKey } from '../resources';

/**
 * `erp order-view <view> <type>/<orderId>`: one read view of a sales order (`GET .../commissions`,
 * `/discounts`, `/tax`, `/rotrut`, `/shipment`), as the API computes it. JSON, or a table: one row
 * per entry (columns: the entries' fields), or for ROT/RUT (one object) a field/value table.
 */

export const ORDER_VIEWS = ['commissions', 'discounts', 'tax', 'rotrut', 'shipment'] as const;
export type OrderViewName = (typeof ORDER_VIEWS)[number];

export function orderViewOf(name: string): OrderViewName {
  const view = ORDER_VIEWS.find((v) => v === name.toLowerCase());
  if (!view) throw new CliError(ExitCode.Usage, `unknown view "${name}" (one of: ${ORDER_VIEWS.join(', ')})`);
  return view;
}

/** The table of a view's answer: the entries' fields in the order they first appear. */
export function formatOrderView(body: unknown): string {
  if (!Array.isArray(body)) return formatRecordTable(flattenRecord(body as ApiRecord));
  const records = body as ApiRecord[];
  const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
  return records.length === 0 ? '' : formatTable(records, columns);
}

export async function orderViewCommand(context: CommandContext, name: string, order: string, options: { output: 'json' | 'table' }): Promise<void> {
  const view = orderViewOf(name);
  const key = salesOrderKey(order);
  const body = await (await context.api()).orderView(key, view);
  context.stdout.write(options.output === 'table' ? formatOrderView(body) : `${JSON.stringify(body, null, 2)}\n`);
}
