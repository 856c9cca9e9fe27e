import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deployedApps } from './catalog';
import { ENVIRONMENTS } from './environments';
import { overlayImages, readRelease, releaseFile } from './images';
import { baseImage } from './kubernetes';

const apps = deployedApps();
const prod = ENVIRONMENTS.find((env) => env.name === 'prod');
const release = JSON.parse(readFileSync(releaseFile('prod'), 'utf8')) as Record<string, Record<string, string>>;

describe('the prod release file (tools/deploy-check/releases/prod.json)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'release-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const withEntries = (entries: unknown) => {
    const path = join(dir, 'release.json');
    writeFileSync(path, JSON.stringify(entries));
    return path;
  };

  it('names every deployed app by repository, tag and digest, and the prod overlay pins each by digest', () => {
    expect(prod?.images).toEqual({ release: 'prod' });
    const images = overlayImages(prod as NonNullable<typeof prod>, apps, baseImage);
    expect(images.map((image) => image.name).sort()).toEqual(apps.map((app) => baseImage(app.name)).sort());
    for (const image of images) expect(image).toEqual({ name: image.name, newName: expect.any(String), newTag: expect.any(String), digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
  });

  it('releases one service by its entry alone: only that app gets a new image', () => {
    const changed = { ...release, 'customers-v1': { ...release['customers-v1'], tag: '1.0.1', digest: `sha256:${'a'.repeat(64)}` } };
    const before = overlayImages({ ...(prod as NonNullable<typeof prod>), images: { release: releaseFile('prod') } }, apps, baseImage);
    const after = overlayImages({ ...(prod as NonNullable<typeof prod>), images: { release: withEntries(changed) } }, apps, baseImage);
    const differing = after.filter((image, i) => JSON.stringify(image) !== JSON.stringify(before[i])).map((image) => image.name);
    expect(differing).toEqual([baseImage('customers-v1')]);
  });

  it.each([
    ['a missing app', (r: typeof release) => ({ ...r, 'customers-v1': undefined }), /customers-v1: no entry/],
    ['a tag without a digest', (r: typeof release) => ({ ...r, 'customers-v1': { ...r['customers-v1'], digest: undefined } }), /customers-v1: digest undefined/],
    ['a short digest', (r: typeof release) => ({ ...r, 'api-gateway': { ...r['api-gateway'], digest: 'sha256:abc' } }), /api-gateway: digest sha256:abc/],
    ['an app that is not deployed', (r: typeof release) => ({ ...r, 'orders-v9': r['customers-v1'] }), /orders-v9: not a deployed app/],
  ])('refuses %s', (_case, change, message) => {
    expect(() => readRelease('test', apps, withEntries(change(release)))).toThrow(message);
  });
});
