import { describeFailure } from './errors';
import { buildProgram } from './program';

/**
 * `erp` entry point: `npm run erp -- <command>` or the `erp` bin. Exits with the documented code
 * (tools/cli/README.md) after stdout and stderr are written.
 */
async function main(argv: string[]): Promise<number> {
  const program = buildProgram({ stdout: process.stdout, stderr: process.stderr, createApi: async (config) => (await import('./erp-client-api')).createCliApi(config) });
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    const failure = describeFailure(error, String(program.opts().baseUrl ?? ''));
    if (failure.message) process.stderr.write(`erp: ${failure.message}\n`);
    return failure.exitCode;
  }
}

// A reader that goes away (`erp export customers | head`) is not an error of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// process.exit() drops what a pipe has not taken yet (a download to `| file` of many MiB): exit
// once both streams have flushed everything written before.
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
void main(process.argv)
  .then(async (code) => {
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    return code;
  })
  .then((code) => process.exit(code));
