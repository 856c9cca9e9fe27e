/** The strong ETag of an answer, which the next write sends back as `If-Match`. */
export function etagOf(headers: Headers, what: string): string {
  const etag = headers.get('etag');
  if (!etag) throw new TypeError(`${what}: the answer carries no ETag`);
  return etag;
}
