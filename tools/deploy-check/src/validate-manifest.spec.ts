import type { Manifest } from './kubernetes';
import { validateManifest } from './validate-manifest';

const deployment = (container: Record<string, unknown>): Manifest => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'x' },
  spec: {
    selector: { matchLabels: { app: 'x' } },
    template: { metadata: { labels: { app: 'x' } }, spec: { containers: [container] } },
  },
});

describe('validateManifest', () => {
  it('accepts a valid object', () => {
    expect(
      validateManifest(deployment({ name: 'app', image: 'erp/x:1', ports: [{ containerPort: 8080 }] })),
    ).toEqual([]);
  });

  it('reports a wrong type with its path', () => {
    const [problem] = validateManifest(
      deployment({ name: 'app', image: 'i', ports: [{ containerPort: 'eighty' }] }),
    );
    expect(problem).toMatch(/^Deployment\/x: .*containerPort must be integer/);
  });

  it('reports a missing required field', () => {
    expect(validateManifest(deployment({ image: 'i' }))[0]).toMatch(
      /containers\/0 must have required property '?name'?/,
    );
  });

  it('reports an unknown apiVersion or kind', () => {
    expect(validateManifest({ apiVersion: 'apps/v9', kind: 'Deployment', metadata: { name: 'x' } })).toEqual([
      'Deployment/x: no schema for apps/v9 Deployment',
    ]);
    expect(validateManifest({ apiVersion: 'v1', kind: 'Frobnicator', metadata: { name: 'x' } })).toHaveLength(
      1,
    );
  });
});
