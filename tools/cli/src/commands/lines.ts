import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { CliError } from '../cli-error';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';
import type { ApiRecord } from '../format/values';
import { salesOrderKey } from '../resources';

/**
 * `erp lines add|patch|delete <type>/<orderId>`: the line operations of a sales order. Each is a
 * conditional write: `--if-match` takes the ETag (or `*`), `--version` the `version` field a `get`
 * printed (the ETag's value in base64). The answer is the order's new `{ etag, version }` on stdout,
 * so a script can chain the next write without reading the order again.
 */

export interface PreconditionOptions {
  ifMatch?: string;
  version?: string;
}

export interface LinesBodyOptions extends PreconditionOptions {
  data: string;
}

/** The If-Match value: exactly one of `--if-match` and `--version`. */
export function ifMatchOf(options: PreconditionOptions): string {
  if ((options.ifMatch === undefined) === (options.version === undefined)) {
    throw new CliError(ExitCode.Usage, 'give the version being changed: --if-match <etag> (or *) or --version <version field of erp get>');
  }
  if (options.ifMatch !== undefined) return options.ifMatch;
  const version = options.version as string;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(version)) throw new CliError(ExitCode.Usage, `--version is the base64 version field of a sales order (got "${version}")`);
  return `"${Buffer.from(version, 'base64').toString('utf8')}"`;
}

/** `--data`: JSON text, `@file` or `@-` (stdin), parsed; `expected` says what it should hold when it is not JSON. */
export async function jsonDataOf(data: string, expected: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<unknown> {
  let source = data;
  try {
    if (data === '@-') source = await text(stdin);
    else if (data.startsWith('@')) source = await readFile(data.slice(1), 'utf8');
  } catch (error) {
    throw new CliError(ExitCode.Usage, `cannot read ${data.slice(1)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return JSON.parse(source) as unknown;
  } catch {
    throw new CliError(ExitCode.Usage, `--data is not valid JSON (${expected})`);
  }
}

/** `--data`: JSON text, `@file` or `@-` (stdin); a `lines` array, or an object `{ lines: [...] }` as the API takes it. */
export async function linesOf(data: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<ApiRecord[]> {
  const parsed = await jsonDataOf(data, 'a lines array, or { "lines": [...] }', stdin);
  const lines = Array.isArray(parsed) ? parsed : (parsed as { lines?: unknown } | null)?.lines;
  if (!Array.isArray(lines)) throw new CliError(ExitCode.Usage, '--data must be a lines array, or { "lines": [...] }');
  return lines as ApiRecord[];
}

/** `--ids 1,2,3`: positive integers; the API checks that the order has them (and the 1000 limit). */
export function lineIdsOf(ids: string): number[] {
  const parts = ids.split(',').map((part) => part.trim());
  const bad = parts.find((part) => !/^[1-9]\d{0,9}$/.test(part));
  if (bad !== undefined) throw new CliError(ExitCode.Usage, `--ids takes comma-separated line ids (got "${bad}")`);
  return parts.map(Number);
}

function printVersion(context: CommandContext, etag: string): void {
  const value = etag.replace(/^"|"$/g, '');
  context.stdout.write(`${JSON.stringify({ etag, version: Buffer.from(value, 'utf8').toString('base64') }, null, 2)}\n`);
}

/** `erp lines add` (new lines) and `erp lines patch` (changes of the lines each `lineId` names). */
export async function writeLinesCommand(context: CommandContext, operation: 'add' | 'patch', order: string, options: LinesBodyOptions): Promise<void> {
  const key = salesOrderKey(order);
  const ifMatch = ifMatchOf(options);
  const lines = await linesOf(options.data);
  const api = await context.api();
  const written = operation === 'add' ? await api.addOrderLines(key, lines, ifMatch) : await api.patchOrderLines(key, lines, ifMatch);
  printVersion(context, written.etag);
}

export async function deleteLinesCommand(context: CommandContext, order: string, options: PreconditionOptions & { ids: string }): Promise<void> {
  const key = salesOrderKey(order);
  const ifMatch = ifMatchOf(options);
  printVersion(context, (await (await context.api()).deleteOrderLines(key, lineIdsOf(options.ids), ifMatch)).etag);
}
