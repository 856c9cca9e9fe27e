import type { ExitCodeValue } from './exit-codes';

/** A failure the CLI already explained: `message` goes to stderr as one line, `exitCode` to the shell. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCodeValue,
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
