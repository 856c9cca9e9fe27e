import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { REPOSITORY_ROOT } from '../releases';
import { RELEASED_APPS } from './app-release';

type Manifest = { kind: string; metadata: { name: string; labels?: Record<string, string> } };

// docs/releasing-one-service.md applies one app with `kubectl apply -k <overlay> -l app.kubernetes.io/name=<app>`:
// that works only if every object of the app carries the label, and its migration Job the component.
describe("one app's Kubernetes objects can be applied alone", () => {
  it.each(RELEASED_APPS)('labels every object of %s with its name', (app) => {
    const manifests = parseAllDocuments(readFileSync(join(REPOSITORY_ROOT, 'docker', 'kubernetes', 'base', `${app}.yaml`), 'utf8')).map((d) => d.toJSON() as Manifest);
    expect(manifests.length).toBeGreaterThan(0);
    for (const manifest of manifests) {
      expect({ object: `${manifest.kind}/${manifest.metadata.name}`, name: manifest.metadata.labels?.['app.kubernetes.io/name'] }).toEqual({
        object: `${manifest.kind}/${manifest.metadata.name}`,
        name: app,
      });
    }
    for (const job of manifests.filter((m) => m.kind === 'Job')) expect(job.metadata.labels?.['app.kubernetes.io/component']).toBe('migration');
  });
});
