/**
 * What the handler of a versioned resource returns (see `@Versioned()`): the body as the API sends
 * it, the version its ETag carries, and for a created resource its Location.
 */
export class VersionedBody<T = unknown> {
  constructor(
    readonly body: T,
    readonly version: string | number | bigint,
    readonly location?: string,
  ) {}
}

/** `return versioned(customer.json, customer.version)` from a `@Versioned()` handler. */
export function versioned<T>(body: T, version: string | number | bigint, options: { location?: string } = {}): VersionedBody<T> {
  return new VersionedBody(body, version, options.location);
}
