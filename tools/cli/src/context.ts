import type { CliApi } from './api';
import type { ApiConfig } from './config';

/** What every command gets: its streams and, for commands that call the API, a configured client. */
export interface CommandContext {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** The configuration from the global options (throws a usage/auth CliError when incomplete). */
  config(): ApiConfig;
  /** The API client, created (and its module loaded) on first use. */
  api(): Promise<CliApi>;
}
