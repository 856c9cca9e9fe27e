import { Command, InvalidArgumentError, Option } from 'commander';
import { getCommand } from './commands/get';
import { listCommand } from './commands/list';
import { exportCommand } from './commands/export';
import { downloadCommand, uploadCommand } from './commands/attachments';
import { deleteLinesCommand, writeLinesCommand } from './commands/lines';
import { ORDER_VIEWS, orderViewCommand } from './commands/order-views';
import { inventoryPutCommand, locationsCommand } from './commands/inventory';
import { pricesGetCommand, pricesPutCommand } from './commands/prices';
import type { PriceRecordKind } from './api';
import { tokenCommand } from './commands/token';
import { webhooksListenCommand } from './commands/webhooks';
import type { CliApi } from './api';
import { apiConfig, collectCompanies, DEFAULT_BASE_URL, type ApiConfig, type GlobalOptions } from './config';
import type { CommandContext } from './context';
import { collectFilter, columnList, portNumber, positiveInteger, positiveNumber } from './options';
import { RESOURCE_NAMES } from './resources';

export interface ProgramDeps {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  createApi(config: ApiConfig): Promise<CliApi>;
}

const FULL_SCOPE = 'erp:read erp:write webhooks:manage';

/**
 * The `erp` command line (commander). Actions throw; main.ts turns what they throw into one line on
 * stderr and a documented exit code. `exitOverride` makes commander throw instead of exiting, so
 * usage errors get exit code 2 there too.
 */
export function buildProgram(deps: ProgramDeps): Command {
  const program = new Command('erp')
    .description('Command-line client of the ERP business API')
    .addOption(new Option('--base-url <url>', 'the API (gateway) base URL').env('ERP_BASE_URL').default(DEFAULT_BASE_URL))
    .addOption(new Option('--token <jwt>', 'bearer token').env('ERP_TOKEN'))
    .addOption(
      new Option('--company <id>', 'company addressed (ipp-company-id); `erp token` takes several').env('ERP_COMPANY').argParser(collectCompanies),
    )
    .addOption(
      new Option('--idempotency-key <key>', "the Idempotency-Key of the command's write (default: a fresh one, shown if the write fails): the same key again applies the write at most once").env('ERP_IDEMPOTENCY_KEY'),
    )
    .showHelpAfterError('(run erp --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.stdout.write(text),
      writeErr: (text) => deps.stderr.write(text),
    });

  let api: Promise<CliApi> | undefined;
  const context: CommandContext = {
    stdout: deps.stdout,
    stderr: deps.stderr,
    config: () => apiConfig(program.opts<GlobalOptions>()),
    api: () => (api ??= deps.createApi(context.config())),
  };
  const output = () => new Option('-o, --output <format>', 'output format').choices(['json', 'table']).default('json');
  const resourceArgument = `resource: ${RESOURCE_NAMES.join(' | ')}`;

  program
    .command('token')
    .description('print a dev token signed with the embedded default key (.data/dev-keys)')
    .option('--scope <scopes>', 'space-separated scopes', FULL_SCOPE)
    .option('--hours <n>', 'lifetime in hours', positiveNumber, 8)
    .option('--subject <sub>', 'token subject', 'dev-user')
    .action((options: { scope: string; hours: number; subject: string }) =>
      tokenCommand(context, { ...options, company: program.opts<GlobalOptions>().company }),
    );

  program
    .command('get')
    .description('print one record (sales orders: <type>/<orderId>, e.g. SO/000123)')
    .argument('<resource>', resourceArgument)
    .argument('<id>', 'customer number, invoice reference number, or sales order type/orderId')
    .option('-q, --query <key=value>', 'query parameter, repeatable (e.g. expand=lines for a sales order)', collectFilter)
    .addOption(output())
    .action((resource: string, id: string, options: { output: 'json' | 'table'; query?: Record<string, string> }) =>
      getCommand(context, resource, id, options),
    );

  program
    .command('list')
    .description('print every record of a list (all pages), as a JSON array or a table')
    .argument('<resource>', resourceArgument)
    .option('-f, --filter <key=value>', 'list filter, repeatable (e.g. status=Active)', collectFilter)
    .option('--page-size <n>', 'records per request', positiveInteger)
    .option('--limit <n>', 'stop after n records', positiveInteger)
    .option('--columns <a,b.c>', 'table columns (dot paths)', columnList)
    .addOption(output())
    .action((resource: string, options) => listCommand(context, resource, options));

  program
    .command('export')
    .description('write every record to NDJSON or CSV, with a progress bar on a terminal')
    .argument('<resource>', resourceArgument)
    .addOption(new Option('--format <format>', 'file format').choices(['ndjson', 'csv']).default('ndjson'))
    .option('--out <file>', 'write to this file instead of stdout')
    .option('-f, --filter <key=value>', 'list filter, repeatable', collectFilter)
    .option('--page-size <n>', 'records per request', positiveInteger)
    .option('--columns <a,b.c>', 'CSV columns (dot paths); default: the first record\'s fields', columnList)
    .action((resource: string, options) => exportCommand(context, resource, options));

  program
    .command('upload')
    .description('attach a file to a customer or supplier invoice; prints the attachment')
    .argument('<owner-type>', 'customer | supplier-invoice')
    .argument('<owner-id>', 'customer number or invoice reference number')
    .argument('<file>', 'the file to upload')
    .option('--name <name>', 'attachment name (default: the file name)')
    .option('--content-type <type>', 'media type (default: application/octet-stream)')
    .action((ownerType: string, ownerId: string, file: string, options) => uploadCommand(context, ownerType, ownerId, file, options));

  program
    .command('download')
    .description('write an attachment\'s bytes to a file or stdout')
    .argument('<attachment-id>', 'attachment id (UUID)')
    .option('--out <file>', 'write to this file instead of stdout')
    .action((id: string, options: { out?: string }) => downloadCommand(context, id, options));

  const lines = program.command('lines').description('add, change or delete lines of a sales order (each all or nothing, with If-Match)');
  const preconditions = (command: Command) =>
    command
      .argument('<order>', 'sales order <type>/<orderId>, e.g. SO/000123')
      .option('--if-match <etag>', 'the ETag of the version being changed, or * for any')
      .option('--version <version>', 'instead of --if-match: the order\'s version field as erp get prints it');
  const data = '--data <json|@file|@->';
  const dataHelp = 'the lines: a JSON array (or { "lines": [...] }), @file, or @- for stdin';
  preconditions(lines.command('add').description('add lines after the last one; prints the new { etag, version }'))
    .requiredOption(data, `${dataHelp}; each needs inventoryId and quantity (no unitPrice: the price rules price it)`)
    .action((order: string, options) => writeLinesCommand(context, 'add', order, options));
  preconditions(lines.command('patch').description('change the lines each entry\'s lineId names; prints the new { etag, version }'))
    .requiredOption(data, `${dataHelp}; each names its lineId`)
    .action((order: string, options) => writeLinesCommand(context, 'patch', order, options));
  preconditions(lines.command('delete').description('delete lines (at most 1000); prints the new { etag, version }'))
    .requiredOption('--ids <ids>', 'comma-separated line ids')
    .action((order: string, options) => deleteLinesCommand(context, order, options));

  program
    .command('order-view')
    .description('print a read view of a sales order, as the API computes it')
    .argument('<view>', ORDER_VIEWS.join(' | '))
    .argument('<order>', 'sales order <type>/<orderId>, e.g. SO/000123')
    .addOption(output())
    .action((view: string, order: string, options: { output: 'json' | 'table' }) => orderViewCommand(context, view, order, options));

  program
    .command('locations')
    .description('print the locations of a customer (GET /api/v3/Customers/{customerId}/locations)')
    .argument('<customer-number>', 'customer number')
    .addOption(output())
    .action((customerNumber: string, options: { output: 'json' | 'table' }) => locationsCommand(context, customerNumber, options));

  const inventory = program.command('inventory').description('inventory items (list them with erp list inventory)');
  inventory
    .command('put')
    .description('create or replace an inventory item (order lines may name it then); prints the item')
    .argument('<inventory-id>', 'the item id (1 to 30 characters)')
    .option(data, 'the whole item: a JSON object ({ description, baseUnit, attributes, availability }), @file, or @- for stdin; default {}')
    .action((inventoryId: string, options: { data?: string }) => inventoryPutCommand(context, inventoryId, options));

  const prices = program.command('prices').description('price classes, price lists and exchange rates (extensions): what prices and totals sales orders');
  const kind = (value: string): PriceRecordKind => {
    if (value === 'class' || value === 'list' || value === 'rates') return value;
    throw new InvalidArgumentError('must be class, list or rates');
  };
  prices
    .command('put')
    .description('create or replace a price class or price list, or set the exchange rates; prints the record')
    .argument('<kind>', 'class, list or rates', kind)
    .argument('[id]', 'the price class or price list id (none for rates)')
    .option(data, 'the whole record as JSON, @file, or @- for stdin')
    .action((k: PriceRecordKind, id: string | undefined, options: { data?: string }) => pricesPutCommand(context, k, id, options));
  prices
    .command('get')
    .description('print a price class, a price list or the exchange rates')
    .argument('<kind>', 'class, list or rates', kind)
    .argument('[id]', 'the price class or price list id (none for rates)')
    .action((k: PriceRecordKind, id: string | undefined) => pricesGetCommand(context, k, id));

  const webhooks = program.command('webhooks').description('webhook tools');
  webhooks
    .command('listen')
    .description('local receiver: subscribe, print verified deliveries, unsubscribe on Ctrl-C')
    .option('--port <n>', 'port to listen on (default: a free one)', portNumber)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--events <types>', 'comma-separated event types (default: all)')
    .option('--secret', 'also print each subscription\'s signing secret')
    .action((options) => webhooksListenCommand(context, options));

  return program;
}
