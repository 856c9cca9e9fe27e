/**
 * The content type of a JSON body a service writes itself (JSON text built by PostgreSQL, a
 * stream, a document): with the charset stated, as `@Header('content-type', JSON_TYPE)` or
 * `reply.type(JSON_TYPE)`. The one definition every service uses.
 */
export const JSON_TYPE = 'application/json; charset=utf-8';
