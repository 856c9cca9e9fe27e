import { compareJsonSchema } from 'api-smart-diff';

/**
 * The changes of one event payload schema (or webhook body schema) that a reader of either side
 * notices, as api-smart-diff finds them (it resolves the schema and describes each change).
 *
 * Its classification is not used here: it judges a schema as a request body (widening is safe).
 * An event is read by consumers of the previous release (old reader, new event) and by current
 * consumers of events still on the topic (new reader, old event), so, as Confluent's FULL mode,
 * only two kinds of change keep both readers working: annotations (descriptions, examples) and a
 * new optional property. Everything else (a removed or renamed field, a type change, a new
 * required field, a narrowed or widened enum, a tighter or looser pattern) is breaking.
 */
export function fullyIncompatibleSchemaChanges(before: unknown, after: unknown): string[] {
  const { diffs } = compareJsonSchema(before, after);
  return diffs.filter((diff) => diff.type !== 'annotation' && !isNewOptionalProperty(diff.action, diff.path, after)).map((diff) => describe(diff));
}

function isNewOptionalProperty(action: string, path: readonly (string | number)[], after: unknown): boolean {
  if (action !== 'add' || path.length < 2 || path[path.length - 2] !== 'properties') return false;
  const parent = path.slice(0, -2).reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], after);
  const required = (parent as { required?: unknown } | undefined)?.required;
  return !(Array.isArray(required) && required.includes(path[path.length - 1]));
}

function describe(diff: { description?: string; action: string; path: readonly (string | number)[] }): string {
  return diff.description ?? `${diff.action} ${diff.path.join('.')}`;
}
