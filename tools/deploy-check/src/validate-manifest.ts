import type { Manifest } from './kubernetes';

type ModelClass = new (data: object) => { validate(): void };

/**
 * Validates an object against the Kubernetes OpenAPI schema of its apiVersion and kind, with the
 * validators `kubernetes-models` (and `@kubernetes-models/prometheus-operator`) ship (generated from the Kubernetes API schemas, ajv-compiled).
 * Returns the problems; an apiVersion/kind with no schema is a problem too. Like kubeconform
 * without `-strict`, unknown fields pass (the Kubernetes schemas do not forbid them): the tests
 * assert the fields that matter (probes, security context) explicitly.
 */
export function validateManifest(manifest: Manifest): string[] {
  const model = modelFor(manifest.apiVersion, manifest.kind);
  const where = `${manifest.kind}/${manifest.metadata?.name ?? '?'}`;
  if (!model) return [`${where}: no schema for ${manifest.apiVersion} ${manifest.kind}`];
  try {
    new model(manifest).validate();
    return [];
  } catch (err) {
    return [`${where}: ${err instanceof Error ? err.message : String(err)}`];
  }
}

function modelFor(apiVersion: string, kind: string): ModelClass | undefined {
  if (!/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) return undefined;
  // The Prometheus Operator's kinds (PodMonitor, PrometheusRule) from its own models package.
  const module = apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${apiVersion}`
    : `kubernetes-models/${apiVersion}`;
  try {
    const group = require(module) as Record<string, unknown>;
    const model = group[kind];
    return typeof model === 'function' ? (model as ModelClass) : undefined;
  } catch {
    return undefined;
  }
}
