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

void main(process.argv).then((code) => process.exit(code));
