import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPOSITORY_ROOT } from '../releases';
import type { EventsDoc } from './event-compat';
import type { WebhookCatalogue } from './webhook-compat';

/** Where a release's published contracts are recorded: `releases/contracts/<version>/`. */
export function contractsDirOf(version: string): string {
  return join(REPOSITORY_ROOT, 'releases', 'contracts', version);
}

/** The published contracts of one release, as recorded when it was cut (docs/releases.md). */
export interface ReleaseContracts {
  /** The gateway's merged public OpenAPI document (`/openapi.json`). */
  openapi: { paths?: Record<string, Record<string, unknown>> };
  /** The AsyncAPI document of the events (`libs/contracts/asyncapi.json`). */
  asyncapi: EventsDoc;
  /** The webhook catalogue (`GET /api/webhooks/publishers`), each type with its delivery schema. */
  webhooks: WebhookCatalogue;
}

export const CONTRACT_FILES = { openapi: 'openapi.json', asyncapi: 'asyncapi.json', webhooks: 'webhooks.json' } as const;

/** A release's recorded contracts; throws naming the missing file (a release cut without recording them). */
export function recordedContracts(version: string): ReleaseContracts {
  const dir = contractsDirOf(version);
  const read = (file: string) => {
    const path = join(dir, file);
    if (!existsSync(path)) throw new Error(`${path} is missing: record the contracts of ${version} (npm run release:contracts -- --version ${version})`);
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  };
  return {
    openapi: read(CONTRACT_FILES.openapi) as ReleaseContracts['openapi'],
    asyncapi: read(CONTRACT_FILES.asyncapi) as EventsDoc,
    webhooks: read(CONTRACT_FILES.webhooks) as WebhookCatalogue,
  };
}
