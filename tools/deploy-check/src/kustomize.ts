import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { Manifest } from './kubernetes';

/**
 * A small kustomize renderer for the subset docker/kubernetes uses, so CI can render the overlays
 * without the kustomize binary (no maintained npm implementation of kustomize exists). Supported:
 * - `resources`: YAML files (one or many documents) and directories holding a kustomization.yaml;
 * - `patches`: strategic-merge patches from `path` or inline `patch`, applied to the object of the
 *   same kind and name, or to every object matching `target` (`kind`, optional `name` regex and
 *   `labelSelector` of `k=v` / `k!=v` terms);
 *   lists of `containers`, `initContainers`, `env`, `volumes` and `volumeMounts` merge by `name`,
 *   other lists are replaced, a `null` value deletes the key;
 * - `images`: `name` -> `newName` / `newTag` / `digest` on every container image;
 * - `namespace`: set on every namespaced object;
 * - `namePrefix`: prefixed to every object name (references to other objects are not rewritten,
 *   unlike kustomize, so the manifests here do not use it);
 * - `labels` with `pairs` (metadata labels only: `includeSelectors`/`includeTemplates` unsupported);
 * - `components`: directories holding a `kind: Component` kustomization, applied in order after the
 *   resources, each to everything accumulated so far (its resources added, its patches and other
 *   fields applied to all), as kustomize does.
 * Anything else is refused with an error rather than silently ignored. When the kustomize binary
 * (or `kubectl kustomize`) is installed, the tests check that it renders the same objects.
 */
export function renderKustomization(dir: string, accumulated: Manifest[] = []): Manifest[] {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization']
    .map((name) => join(dir, name))
    .find(existsSync);
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  const kustomization = (parseYaml(file)[0] ?? {}) as Kustomization;
  const unsupported = Object.keys(kustomization).filter((key) => !SUPPORTED_FIELDS.has(key));
  if (unsupported.length > 0)
    throw new Error(`${file}: unsupported kustomization field(s): ${unsupported.join(', ')}`);

  let objects: Manifest[] = [...accumulated];
  for (const resource of kustomization.resources ?? []) {
    const path = resolve(dir, resource);
    objects.push(
      ...(statSync(path).isDirectory() ? renderKustomization(path) : (parseYaml(path) as Manifest[])),
    );
  }
  objects = objects.map((object) => structuredClone(object));
  for (const component of kustomization.components ?? []) {
    const componentDir = resolve(dir, component);
    const kind = (parseYaml(join(componentDir, 'kustomization.yaml'))[0] as Kustomization | undefined)?.kind;
    if (kind !== 'Component') throw new Error(`${file}: component ${component} is not a kind: Component kustomization`);
    objects = renderKustomization(componentDir, objects);
  }

  for (const entry of kustomization.patches ?? []) {
    const patch = patchDocument(dir, entry);
    const matches = objects.filter((object) => patchApplies(entry.target, patch, object));
    if (matches.length === 0) throw new Error(`${file}: patch ${entry.path ?? '(inline)'} matches no object`);
    objects = objects.map((object) => {
      if (!matches.includes(object)) return object;
      // The patch's own name only selects (without a target); its other metadata merges.
      const { name: _name, ...metadata } = patch.metadata ?? {};
      return strategicMerge(object, { ...patch, metadata }) as Manifest;
    });
  }
  for (const object of objects) {
    if (kustomization.namePrefix) object.metadata.name = `${kustomization.namePrefix}${object.metadata.name}`;
    if (kustomization.namespace && !CLUSTER_SCOPED.has(object.kind))
      object.metadata.namespace = kustomization.namespace;
    for (const label of kustomization.labels ?? []) {
      if (label.includeSelectors || label.includeTemplates)
        throw new Error(`${file}: labels.includeSelectors/includeTemplates unsupported`);
      object.metadata.labels = {
        ...(object.metadata.labels as Record<string, string> | undefined),
        ...label.pairs,
      };
    }
    for (const image of kustomization.images ?? []) setImages(object, image);
  }
  return objects;
}

interface PatchEntry {
  path?: string;
  patch?: string;
  target?: { kind?: string; name?: string; group?: string; version?: string; labelSelector?: string };
}

interface ImageEntry {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  namePrefix?: string;
  labels?: Array<{ pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }>;
  patches?: PatchEntry[];
  images?: ImageEntry[];
  components?: string[];
}

const SUPPORTED_FIELDS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'namePrefix',
  'labels',
  'patches',
  'images',
  'components',
]);
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'PriorityClass',
]);
/** List fields merged element by element, keyed by `name` (the patch strategy Kubernetes declares for them). */
const MERGE_BY_NAME = new Set([
  'containers',
  'initContainers',
  'ephemeralContainers',
  'env',
  'volumes',
  'volumeMounts',
]);

function parseYaml(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]?.message}`);
    const value: unknown = document.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}

function patchDocument(dir: string, entry: PatchEntry): Manifest {
  const documents = entry.path
    ? parseYaml(resolve(dir, entry.path))
    : parseAllDocuments(entry.patch ?? '').map((d) => d.toJS() as unknown);
  const [patch] = documents;
  if (documents.length !== 1 || !isObject(patch) || Array.isArray(patch)) {
    throw new Error(
      `${entry.path ?? 'inline patch'}: only single-document strategic-merge patches are supported`,
    );
  }
  return patch as Manifest;
}

function patchApplies(target: PatchEntry['target'], patch: Manifest, object: Manifest): boolean {
  if (!target) return object.kind === patch.kind && object.metadata.name === patch.metadata?.name;
  if (target.kind && target.kind !== object.kind) return false;
  if (target.name && !new RegExp(`^(?:${target.name})$`).test(object.metadata.name)) return false;
  if (target.labelSelector) {
    const labels = (object.metadata.labels ?? {}) as Record<string, string>;
    return target.labelSelector.split(',').every((term) => {
      const match = /^\s*([^=!\s]+)\s*(==?|!=)\s*([^\s]*)\s*$/.exec(term);
      if (!match) throw new Error(`labelSelector ${target.labelSelector}: only k=v and k!=v terms are supported`);
      const [, label = '', op, value] = match;
      return op === '!=' ? labels[label] !== value : labels[label] === value;
    });
  }
  return true;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Strategic merge of `patch` into `base` (the subset described above); returns a new value. */
export function strategicMerge(base: unknown, patch: unknown, field = ''): unknown {
  if (isObject(base) && isObject(patch)) {
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete out[key];
      else out[key] = key in base ? strategicMerge(base[key], value, key) : structuredClone(value);
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(patch) && MERGE_BY_NAME.has(field)) {
    const out = base.map((item) => structuredClone(item) as unknown);
    for (const item of patch) {
      const index = isObject(item)
        ? out.findIndex((existing) => isObject(existing) && existing.name === item.name)
        : -1;
      if (index >= 0) out[index] = strategicMerge(out[index], item);
      else out.push(structuredClone(item));
    }
    return out;
  }
  return structuredClone(patch);
}

function setImages(node: unknown, image: ImageEntry): void {
  if (Array.isArray(node)) {
    for (const item of node) setImages(item, image);
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'containers' || key === 'initContainers') && Array.isArray(value)) {
      for (const container of value) {
        if (isObject(container) && typeof container.image === 'string')
          container.image = replaceImage(container.image, image);
      }
    } else {
      setImages(value, image);
    }
  }
}

function replaceImage(reference: string, image: ImageEntry): string {
  const match = /^(.*?)(?::([^:/@]+))?(?:@(.+))?$/.exec(reference);
  const [, name = reference, tag, digest] = match ?? [];
  if (name !== image.name) return reference;
  const newName = image.newName ?? name;
  // As kustomize 5 does: a digest with a new tag keeps both (`name:tag@digest`), alone it drops the tag.
  if (image.digest) return `${newName}${image.newTag ? `:${image.newTag}` : ''}@${image.digest}`;
  const newTag = image.newTag ?? tag;
  return `${newName}${newTag ? `:${newTag}` : ''}${!image.newTag && digest ? `@${digest}` : ''}`;
}
