import type { OpenAPIObject } from '@nestjs/swagger';
import { applyPageLimits, PAGE_LIMIT_EXTENSION } from './page-limits';

function documentWith(limit: string): OpenAPIObject {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/v1/things': {
        get: {
          responses: {},
          parameters: [
            { name: 'pageNumber', in: 'query', schema: { type: 'integer', default: 1 } },
            { name: 'pageSize', in: 'query', schema: { type: 'integer', minimum: 1 }, [PAGE_LIMIT_EXTENSION]: limit } as never,
          ],
        },
      },
    },
  };
}

describe('applyPageLimits', () => {
  it("writes the configured maximum into the bounded pageSize parameter and leaves the others", () => {
    const document = documentWith('THING_MAX_PAGE_SIZE');
    applyPageLimits(document, { THING_MAX_PAGE_SIZE: 321 });
    const [pageNumber, pageSize] = document.paths['/v1/things']!.get!.parameters as { schema: { default: number }; description?: string }[];
    expect(pageSize!.schema).toEqual({ type: 'integer', minimum: 1, default: 321 });
    expect(pageSize!.description).toBe('Records per page; default and maximum 321 (THING_MAX_PAGE_SIZE; larger values return the maximum)');
    expect(pageNumber!.schema.default).toBe(1);
  });

  it('fails the build when the service gives no value for the named limit', () => {
    expect(() => applyPageLimits(documentWith('THING_MAX_PAGE_SIZE'), { OTHER: 5 })).toThrow(/THING_MAX_PAGE_SIZE/);
  });
});
