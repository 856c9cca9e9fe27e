import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CliError } from '../cli-error';
import { ExitCode } from '../exit-codes';
import { ifMatchOf, lineIdsOf, linesOf } from './lines';

function usageError(run: () => unknown): CliError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(ExitCode.Usage);
    return error as CliError;
  }
  throw new Error('expected a usage error');
}

describe('erp lines: arguments', () => {
  it('takes the ETag as --if-match, or the version field of erp get as --version (its base64)', () => {
    expect(ifMatchOf({ ifMatch: '"42"' })).toBe('"42"');
    expect(ifMatchOf({ ifMatch: '*' })).toBe('*');
    expect(ifMatchOf({ version: Buffer.from('42').toString('base64') })).toBe('"42"');
    expect(usageError(() => ifMatchOf({})).message).toMatch(/--if-match/);
    usageError(() => ifMatchOf({ ifMatch: '"1"', version: 'MQ==' }));
    usageError(() => ifMatchOf({ version: 'not base64!' }));
  });

  it('reads the lines as a JSON array or { lines }, from the argument, a file or stdin', async () => {
    const lines = [{ inventoryId: 'A', quantity: 1, unitPrice: '2.50' }];
    expect(await linesOf(JSON.stringify(lines))).toEqual(lines);
    expect(await linesOf(JSON.stringify({ lines }))).toEqual(lines);
    const file = join(await mkdtemp(join(tmpdir(), 'erp-lines-')), 'lines.json');
    await writeFile(file, JSON.stringify({ lines }));
    expect(await linesOf(`@${file}`)).toEqual(lines);
    expect(await linesOf('@-', Readable.from([JSON.stringify(lines)]))).toEqual(lines);
  });

  it('refuses data that is not lines before calling the API', async () => {
    await expect(linesOf('{not json')).rejects.toMatchObject({ exitCode: ExitCode.Usage, message: expect.stringMatching(/not valid JSON/) });
    await expect(linesOf('{"line": []}')).rejects.toMatchObject({ exitCode: ExitCode.Usage });
    await expect(linesOf('null')).rejects.toMatchObject({ exitCode: ExitCode.Usage });
    await expect(linesOf('@/nonexistent/lines.json')).rejects.toMatchObject({ exitCode: ExitCode.Usage, message: expect.stringMatching(/cannot read/) });
  });

  it('takes --ids as comma-separated positive integers', () => {
    expect(lineIdsOf('3, 1,2')).toEqual([3, 1, 2]);
    expect(usageError(() => lineIdsOf('1,x')).message).toMatch(/"x"/);
    usageError(() => lineIdsOf('0'));
    usageError(() => lineIdsOf('1,,2'));
  });
});
