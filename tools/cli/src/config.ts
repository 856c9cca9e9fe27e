import { CliError } from './cli-error';
import { ExitCode } from './exit-codes';

/** Where and as whom the CLI calls the API (global options, falling back to the environment). */
export interface ApiConfig {
  baseUrl: string;
  token: string;
  companyId?: string;
  /** The Idempotency-Key of the command's write (`--idempotency-key`); default a fresh one. */
  idempotencyKey?: string;
}

/** The gateway's default port in the embedded default (tools/dev/src/services.ts GATEWAY). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

export interface GlobalOptions {
  baseUrl: string;
  token?: string;
  company?: string[];
  idempotencyKey?: string;
}

/** `--idempotency-key`: what the API takes (at most 255 visible ASCII characters), checked before any call. */
export function parseIdempotencyKey(value: string): string {
  if (value.length === 0 || value.length > 255 || !/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value)) {
    throw new CliError(ExitCode.Usage, '--idempotency-key/ERP_IDEMPOTENCY_KEY must be 1 to 255 visible ASCII characters');
  }
  return value;
}

/** `--base-url` must be an absolute http(s) URL; a typo should be a usage error, not a network error. */
export function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(ExitCode.Usage, `--base-url/ERP_BASE_URL is not a URL: "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(ExitCode.Usage, `--base-url/ERP_BASE_URL must be http or https: "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

/** `--company` may repeat and take commas (for `erp token`); values are trimmed, empties dropped. */
export function collectCompanies(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').map((c) => c.trim()).filter(Boolean)];
}

export function apiConfig(options: GlobalOptions): ApiConfig {
  const baseUrl = parseBaseUrl(options.baseUrl);
  const token = options.token?.trim();
  if (!token) {
    throw new CliError(
      ExitCode.Auth,
      'no token: pass --token or set ERP_TOKEN (embedded default: export ERP_TOKEN=$(npm run -s erp -- token))',
    );
  }
  const companies = options.company ?? [];
  if (companies.length > 1) throw new CliError(ExitCode.Usage, 'API calls address one company: give one --company/ERP_COMPANY');
  return { baseUrl, token, companyId: companies[0], ...(options.idempotencyKey ? { idempotencyKey: parseIdempotencyKey(options.idempotencyKey) } : {}) };
}
