import type { PriceRecordKind } from '../api';
import { CliError } from '../cli-error';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';
import type { ApiRecord } from '../format/values';
import { jsonDataOf } from './lines';

const EXAMPLES: Record<PriceRecordKind, string> = {
  class: '{ "description": "Trade", "customers": ["10001"] }',
  list: '{ "currencyId": "NOK", "entries": [{ "inventoryId": "BOLT", "minQuantity": 100, "unitPrice": "2.10" }] }',
  rates: '{ "baseCurrencyId": "NOK", "rates": [{ "currencyId": "EUR", "effectiveDate": "2026-01-01", "rate": "11.5" }] }',
};

/**
 * `erp prices put class|list <id> --data ...`, `erp prices put rates --data ...`: creates or replaces a
 * price class, a price list or the exchange rates (extensions of the v3 document); prints the record.
 */
export async function pricesPutCommand(context: CommandContext, kind: PriceRecordKind, id: string | undefined, options: { data?: string }): Promise<void> {
  const usage = `--data must be an object, e.g. ${EXAMPLES[kind]}`;
  if (options.data === undefined) throw new CliError(ExitCode.Usage, usage);
  const body = await jsonDataOf(options.data, EXAMPLES[kind]);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new CliError(ExitCode.Usage, usage);
  const written = await (await context.api()).putPriceRecord(kind, requireId(kind, id), body as ApiRecord);
  context.stdout.write(`${JSON.stringify(written, null, 2)}\n`);
}

/** `erp prices get class|list <id>`, `erp prices get rates`: prints the record (404 when there is none). */
export async function pricesGetCommand(context: CommandContext, kind: PriceRecordKind, id: string | undefined): Promise<void> {
  const record = await (await context.api()).getPriceRecord(kind, requireId(kind, id));
  context.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
}

/** A class or list needs its id; the rates have none. */
function requireId(kind: PriceRecordKind, id: string | undefined): string | undefined {
  if (kind === 'rates') {
    if (id !== undefined) throw new CliError(ExitCode.Usage, 'rates take no id: erp prices put rates --data ...');
    return undefined;
  }
  if (id === undefined) throw new CliError(ExitCode.Usage, `a price ${kind} needs its id: erp prices ... ${kind} <id>`);
  return id;
}
