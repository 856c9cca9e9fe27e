import { mergeOpenApiDocuments, type OpenApiDoc } from './merge';

const doc = (paths: Record<string, unknown>, schemas: Record<string, unknown>): OpenApiDoc => ({
  openapi: '3.1.0',
  info: { title: 'x', version: '1' },
  paths,
  components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
});

const op = (schema: string) => ({ get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } } } } });

describe('mergeOpenApiDocuments', () => {
  it('unions disjoint paths and keeps identical components once', () => {
    const { document, warnings } = mergeOpenApiDocuments(
      [
        { service: 'a', document: doc({ '/v1/a': op('V1Error') }, { V1Error: { type: 'object' } }) },
        { service: 'b', document: doc({ '/v1/b': op('V1Error') }, { V1Error: { type: 'object' } }) },
      ],
      { title: 'All', version: '1' },
    );
    expect(Object.keys(document.paths!)).toEqual(['/v1/a', '/v1/b']);
    expect(document.components!.schemas).toEqual({ V1Error: { type: 'object' } });
    expect(document.components!.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer' } });
    expect(warnings).toEqual([]);
  });

  it('renames a different component of the same name and rewrites the references to it', () => {
    const { document, warnings } = mergeOpenApiDocuments(
      [
        { service: 'a', document: doc({ '/v1/a': op('Line') }, { Line: { type: 'object', properties: { a: { type: 'string' } } } }) },
        { service: 'b', document: doc({ '/v1/b': op('Line') }, { Line: { type: 'object', properties: { b: { type: 'string' } } } }) },
      ],
      { title: 'All', version: '1' },
    );
    expect(Object.keys(document.components!.schemas!)).toEqual(['Line', 'Line_b']);
    expect(JSON.stringify(document.paths!['/v1/a'])).toContain('#/components/schemas/Line"');
    expect(JSON.stringify(document.paths!['/v1/b'])).toContain('#/components/schemas/Line_b"');
    expect(warnings).toHaveLength(1);
  });

  it('keeps the first description of a path declared twice', () => {
    const { document, warnings } = mergeOpenApiDocuments(
      [
        { service: 'a', document: doc({ '/x': op('A') }, { A: {} }) },
        { service: 'b', document: doc({ '/x': op('B') }, { B: {} }) },
      ],
      { title: 'All', version: '1' },
    );
    expect(JSON.stringify(document.paths!['/x'])).toContain('schemas/A');
    expect(warnings[0]).toMatch(/path \/x of b/);
  });
});
