import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import type { Manifest } from './kubernetes';
import { renderKustomization, strategicMerge } from './kustomize';

let root: string;
const write = (path: string, ...documents: unknown[]) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), documents.map((d) => stringify(d)).join('---\n'));
};

const deployment = (name: string): Manifest => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { app: name } },
  spec: {
    replicas: 1,
    template: {
      spec: {
        containers: [
          {
            name: 'app',
            image: `erp/${name}:latest`,
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
            args: ['--x'],
          },
          { name: 'sidecar', image: 'envoy:1.0' },
        ],
      },
    },
  },
});

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kustomize-spec-'));
  write('base/kustomization.yaml', { resources: ['apps.yaml', 'jobs'] });
  write('base/apps.yaml', deployment('one'), deployment('two'));
  write('base/jobs/kustomization.yaml', { resources: ['job.yaml'] });
  write('base/jobs/job.yaml', {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'one-migrate' },
    spec: {
      template: {
        spec: {
          initContainers: [{ name: 'wait', image: 'erp/one' }],
          containers: [{ name: 'm', image: 'erp/one@sha256:abc' }],
        },
      },
    },
  });
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const render = (kustomization: object) => {
  write('overlay/kustomization.yaml', kustomization);
  return renderKustomization(join(root, 'overlay'));
};
const containers = (o: Manifest | undefined) =>
  (o?.spec as { template: { spec: { containers: Array<Record<string, unknown>> } } }).template.spec
    .containers;

describe('renderKustomization', () => {
  it('collects resources from files with several documents and from nested kustomizations', () => {
    expect(render({ resources: ['../base'] }).map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      'Deployment/one',
      'Deployment/two',
      'Job/one-migrate',
    ]);
  });

  it('applies a strategic-merge patch to the object of the same kind and name', () => {
    write('overlay/replicas.yaml', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'two', annotations: { a: 'b' } },
      spec: { replicas: 3 },
    });
    const [one, two] = render({ resources: ['../base'], patches: [{ path: 'replicas.yaml' }] });
    expect((one?.spec as { replicas: number }).replicas).toBe(1);
    expect((two?.spec as { replicas: number }).replicas).toBe(3);
    expect(two?.metadata).toEqual({ name: 'two', labels: { app: 'two' }, annotations: { a: 'b' } });
  });

  it('applies a patch with a target to every object it selects, ignoring the name in the patch', () => {
    write('overlay/resources.yaml', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'ignored' },
      spec: {
        template: { spec: { containers: [{ name: 'app', resources: { limits: { memory: '1Gi' } } }] } },
      },
    });
    const objects = render({
      resources: ['../base'],
      patches: [{ path: 'resources.yaml', target: { kind: 'Deployment' } }],
    });
    for (const name of ['one', 'two']) {
      const [app, sidecar] = containers(objects.find((o) => o.metadata.name === name));
      expect(app).toMatchObject({
        name: 'app',
        image: `erp/${name}:latest`,
        resources: { limits: { memory: '1Gi' } },
      });
      expect(sidecar).toEqual({ name: 'sidecar', image: 'envoy:1.0' });
    }
  });

  it('selects patch targets by a name pattern', () => {
    const objects = render({
      resources: ['../base'],
      patches: [
        {
          patch: stringify({
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: 'x' },
            spec: { replicas: 5 },
          }),
          target: { kind: 'Deployment', name: 't.*' },
        },
      ],
    });
    expect(objects.map((o) => (o.spec as { replicas?: number }).replicas)).toEqual([1, 5, undefined]);
  });

  it('refuses a patch that matches nothing', () => {
    write('overlay/p.yaml', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'three' },
      spec: { replicas: 3 },
    });
    expect(() => render({ resources: ['../base'], patches: [{ path: 'p.yaml' }] })).toThrow(
      /matches no object/,
    );
  });

  it('replaces images by name, keeping or replacing tag and digest, in containers and init containers', () => {
    const objects = render({
      resources: ['../base'],
      images: [
        { name: 'erp/one', newName: 'registry.example.com/erp/one', newTag: '1.2.3' },
        { name: 'envoy', newTag: '1.1' },
      ],
    });
    expect(containers(objects[0]).map((c) => c.image)).toEqual([
      'registry.example.com/erp/one:1.2.3',
      'envoy:1.1',
    ]);
    expect(containers(objects[1]).map((c) => c.image)).toEqual(['erp/two:latest', 'envoy:1.1']);
    const job = (
      objects[2]?.spec as {
        template: {
          spec: { initContainers: Array<{ image: string }>; containers: Array<{ image: string }> };
        };
      }
    ).template.spec;
    expect(job.initContainers[0]?.image).toBe('registry.example.com/erp/one:1.2.3');
    expect(job.containers[0]?.image).toBe('registry.example.com/erp/one:1.2.3');
  });

  it('pins a digest as kustomize 5 does: with a new tag `name:tag@digest`, alone `name@digest`', () => {
    const digest = `sha256:${'b'.repeat(64)}`;
    const objects = render({
      resources: ['../base'],
      images: [
        { name: 'erp/one', newName: 'registry.example.com/erp/one', newTag: '1.2.3', digest },
        { name: 'erp/two', digest },
      ],
    });
    expect(containers(objects[0])[0]?.image).toBe(`registry.example.com/erp/one:1.2.3@${digest}`);
    expect(containers(objects[1])[0]?.image).toBe(`erp/two@${digest}`);
  });

  it('applies components after the resources: their objects join, their patches reach the parent’s objects', () => {
    write('overlay/extra/kustomization.yaml', {
      apiVersion: 'kustomize.config.k8s.io/v1alpha1',
      kind: 'Component',
      resources: ['more.yaml'],
      patches: [{ patch: stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'one', labels: { pooled: 'yes' } } }) }],
    });
    write('overlay/extra/more.yaml', deployment('three'));
    const objects = render({ resources: ['../base'], components: ['extra'], namespace: 'ns' });
    expect(objects.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['ns/one', 'ns/two', 'ns/one-migrate', 'ns/three']);
    expect(objects[0]?.metadata.labels).toEqual({ app: 'one', pooled: 'yes' });
    write('overlay/plain/kustomization.yaml', { resources: ['more.yaml'] });
    expect(() => render({ resources: ['../base'], components: ['plain'] })).toThrow(/not a kind: Component/);
  });

  it('selects patch targets by labelSelector (k=v and k!=v terms)', () => {
    write('overlay/p.yaml', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'any', labels: { patched: 'yes' } } });
    const only = (labelSelector: string) =>
      render({ resources: ['../base'], patches: [{ path: 'p.yaml', target: { kind: 'Deployment', labelSelector } }] })
        .filter((o) => (o.metadata.labels as Record<string, string> | undefined)?.['patched'] === 'yes')
        .map((o) => o.metadata.name);
    expect(only('app=two')).toEqual(['two']);
    expect(only('app!=two')).toEqual(['one']);
  });

  it('sets the namespace, a name prefix and labels', () => {
    const objects = render({
      resources: ['../base'],
      namespace: 'erp-dev',
      namePrefix: 'dev-',
      labels: [{ pairs: { env: 'dev' } }],
    });
    expect(objects.map((o) => o.metadata)).toEqual([
      { name: 'dev-one', namespace: 'erp-dev', labels: { app: 'one', env: 'dev' } },
      { name: 'dev-two', namespace: 'erp-dev', labels: { app: 'two', env: 'dev' } },
      { name: 'dev-one-migrate', namespace: 'erp-dev', labels: { env: 'dev' } },
    ]);
  });

  it('refuses kustomization fields it does not implement', () => {
    expect(() =>
      render({ resources: ['../base'], commonLabels: { a: 'b' }, configMapGenerator: [] }),
    ).toThrow(/unsupported kustomization field\(s\): commonLabels, configMapGenerator/);
    expect(() =>
      render({ resources: ['../base'], labels: [{ pairs: { a: 'b' }, includeSelectors: true }] }),
    ).toThrow(/includeSelectors/);
  });

  it('leaves the base untouched when rendering an overlay', () => {
    render({ resources: ['../base'], namespace: 'x', images: [{ name: 'erp/one', newTag: '9' }] });
    expect(renderKustomization(join(root, 'base'))[0]).toEqual(deployment('one'));
  });
});

describe('strategicMerge', () => {
  it('merges env entries by name, appending new ones, and deletes keys set to null', () => {
    const base = {
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
      args: ['--x'],
      keep: true,
      drop: 1,
    };
    expect(
      strategicMerge(base, {
        env: [
          { name: 'B', value: '3' },
          { name: 'C', value: '4' },
        ],
        args: ['--y'],
        drop: null,
      }),
    ).toEqual({
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '3' },
        { name: 'C', value: '4' },
      ],
      args: ['--y'],
      keep: true,
    });
  });
});
