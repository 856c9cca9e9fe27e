import type { OpenAPIObject } from '@nestjs/swagger';
import { applyIdempotencyKeys } from './idempotency-keys';

const documentWith = (paths: OpenAPIObject['paths']): OpenAPIObject => ({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths });

describe('applyIdempotencyKeys', () => {
  it('gives every POST and PATCH the optional header and the 409 and 422 answers, in the family shape of its path', () => {
    const document = documentWith({
      '/v1/customer': { post: { responses: { '201': { description: 'Created' } } }, get: { responses: {} } },
      '/api/v3/SalesOrders/{type}/{orderId}': { patch: { parameters: [{ name: 'If-Match', in: 'header' }], responses: {} }, put: { responses: {} }, delete: { responses: {} } },
    });
    applyIdempotencyKeys(document);
    const post = document.paths['/v1/customer']!.post!;
    expect(post.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false })]);
    expect(Object.keys(post.responses)).toEqual(['201', '409', '422']);
    expect(JSON.stringify(post.responses['422'])).toContain('V1Error');
    const patch = document.paths['/api/v3/SalesOrders/{type}/{orderId}']!.patch!;
    expect(patch.parameters!.map((p) => (p as { name: string }).name)).toEqual(['If-Match', 'Idempotency-Key']);
    expect(JSON.stringify(patch.responses['409'])).toContain('Problem');
    // Reads, PUT and DELETE are left as they were.
    expect(document.paths['/v1/customer']!.get!.parameters).toBeUndefined();
    expect(document.paths['/api/v3/SalesOrders/{type}/{orderId}']!.put!.parameters).toBeUndefined();
  });

  it('keeps a route\'s own 409, and adds the header once however often it runs', () => {
    const document = documentWith({ '/api/webhooks/subscriptions': { post: { responses: { '409': { description: 'Its own conflict' } } } } });
    applyIdempotencyKeys(document);
    applyIdempotencyKeys(document);
    const post = document.paths['/api/webhooks/subscriptions']!.post!;
    expect(post.parameters).toHaveLength(1);
    expect(post.responses['409']).toEqual({ description: 'Its own conflict' });
  });
});
