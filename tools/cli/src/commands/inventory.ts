import { CliError } from '../cli-error';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';
import { formatTable } from '../format/table';
import type { ApiRecord } from '../format/values';
import { jsonDataOf } from './lines';

/**
 * `erp inventory put <inventoryId> --data <json|@file|@->`: creates or replaces an inventory item
 * (`PUT /api/v3/Inventory/{inventoryId}`); prints the item as the API answers it.
 */
export async function inventoryPutCommand(context: CommandContext, inventoryId: string, options: { data?: string }): Promise<void> {
  const item = options.data === undefined ? {} : await jsonDataOf(options.data, 'an item object, e.g. { "description": "Bolt" }');
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new CliError(ExitCode.Usage, '--data must be an item object, e.g. { "description": "Bolt" }');
  const written = await (await context.api()).putInventoryItem(inventoryId, item as ApiRecord);
  context.stdout.write(`${JSON.stringify(written, null, 2)}\n`);
}

/** `erp locations <customer-number>`: the customer's locations (`GET /api/v3/Customers/{id}/locations`). */
export async function locationsCommand(context: CommandContext, customerNumber: string, options: { output: 'json' | 'table' }): Promise<void> {
  const locations = await (await context.api()).customerLocations(customerNumber);
  context.stdout.write(
    options.output === 'table'
      ? formatTable(locations, ['id', 'name', 'address.line1', 'address.postalCode', 'address.city', 'address.country.id', 'contact.name', 'contact.email'])
      : `${JSON.stringify(locations, null, 2)}\n`,
  );
}
