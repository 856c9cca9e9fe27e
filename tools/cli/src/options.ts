import { InvalidArgumentError } from 'commander';

/** `--filter key=value` (repeatable) into one object; a later value for the same key wins. */
export function collectFilter(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`expected key=value, got "${value}"`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

export function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  }
  return Number(value);
}

export function portNumber(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError(`expected a port 0-65535, got "${value}"`);
  return Number(value);
}

export function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return number;
}

export function columnList(value: string): string[] {
  const columns = value.split(',').map((c) => c.trim()).filter(Boolean);
  if (columns.length === 0) throw new InvalidArgumentError('expected comma-separated column names');
  return columns;
}
