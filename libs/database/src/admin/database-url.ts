/** PostgreSQL truncates identifiers longer than this many bytes, so longer names are rejected. */
const MAX_IDENTIFIER_BYTES = 63;

/**
 * Returns `serverUrl` with its database name replaced by `database`. Credentials, host, port and
 * query parameters (e.g. `sslmode`) are kept.
 */
export function databaseUrlFor(serverUrl: string, database: string): string {
  assertDatabaseName(database);
  const url = parsePostgresUrl(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** The database named in a connection URL, or undefined when the URL names none. */
export function databaseNameOf(url: string): string | undefined {
  const path = parsePostgresUrl(url).pathname.replace(/^\//, '');
  return path === '' ? undefined : decodeURIComponent(path);
}

/** The URL without its password, for log lines and error messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable database URL>';
  }
}

export function assertDatabaseName(database: string): void {
  if (database.length === 0) throw new Error('Database name must not be empty');
  if (Buffer.byteLength(database, 'utf8') > MAX_IDENTIFIER_BYTES) {
    throw new Error(`Database name "${database}" is longer than ${MAX_IDENTIFIER_BYTES} bytes`);
  }
  if (database.includes('\0')) throw new Error('Database name must not contain NUL characters');
}

function parsePostgresUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`Not a valid database URL: ${redactUrl(url)}`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new Error(`Expected a postgres:// or postgresql:// URL, got ${parsed.protocol}//`);
  }
  if (!parsed.host) throw new Error(`Database URL has no host: ${redactUrl(url)}`);
  return parsed;
}
