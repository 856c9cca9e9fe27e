import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { mergeOpenApiDocuments, type OpenApiDoc } from '@erp/openapi';
import type { GatewayConfig } from '../config';
import { type UpstreamName, upstreamUrlsFrom } from '../proxy/routes';

export interface AggregatorSettings {
  /**
   * Attempts at start-up per service (one a second) before it is skipped until asked again. A
   * minute: the gateway starts beside the services, which migrate before they listen, and on a
   * loaded 2-core machine that took more than the ten seconds this once was (the merged document
   * then left out services that were up by the time it was asked for).
   */
  startupAttempts: number;
  /** A service that failed is asked again at most this often (on a request for the document). */
  retryAfterMs: number;
  /** A fetched document is kept this long, then fetched again on the next request. */
  cacheMs: number;
  fetchTimeoutMs: number;
}

export const AGGREGATOR_SETTINGS: AggregatorSettings = { startupAttempts: 60, retryAfterMs: 5_000, cacheMs: 60_000, fetchTimeoutMs: 3_000 };

interface Entry {
  document?: OpenApiDoc;
  fetchedAt: number;
  failedAt: number;
  inFlight?: Promise<void>;
}

const ORDER: UpstreamName[] = ['customers', 'supplierInvoices', 'attachments', 'salesOrders', 'webhooks'];

/**
 * The gateway's merged API document: each configured service's `/openapi.json`, fetched at
 * start-up (retried briefly), merged by `mergeOpenApiDocuments`. A service that is down is left
 * out and asked again on a later request (at most every `retryAfterMs`); documents are cached for
 * `cacheMs`.
 */
@Injectable()
export class OpenApiAggregator implements OnApplicationBootstrap {
  private readonly logger = new Logger('OpenApiAggregator');
  private readonly upstreams: [UpstreamName, string][];
  private readonly entries = new Map<UpstreamName, Entry>();
  private merged?: { json: string; builtFrom: string };
  private readonly settings = AGGREGATOR_SETTINGS;

  constructor(@Inject('GATEWAY_CONFIG') config: GatewayConfig) {
    const urls = upstreamUrlsFrom(config);
    this.upstreams = ORDER.flatMap((name): [UpstreamName, string][] => {
      // Every replica serves the same document: the first one's will do.
      const url = urls[name]?.[0];
      return url ? [[name, url]] : [];
    });
  }

  /** Fetches in the background so that start-up is not held up by a service that is still starting. */
  onApplicationBootstrap(): void {
    for (const [name, url] of this.upstreams) {
      const entry: Entry = { fetchedAt: 0, failedAt: 0 };
      this.entries.set(name, entry);
      entry.inFlight = this.fetchWithRetry(name, url, entry, this.settings.startupAttempts).finally(() => {
        entry.inFlight = undefined;
      });
    }
  }

  /** The merged document as JSON text. */
  async document(): Promise<string> {
    const now = Date.now();
    await Promise.all(
      this.upstreams.map(([name, url]) => {
        const entry = this.entries.get(name) ?? { fetchedAt: 0, failedAt: 0 };
        this.entries.set(name, entry);
        if (entry.inFlight) return entry.inFlight;
        const stale = entry.document ? now - entry.fetchedAt > this.settings.cacheMs : now - entry.failedAt > this.settings.retryAfterMs;
        if (!stale) return undefined;
        entry.inFlight = this.fetchWithRetry(name, url, entry, 1).finally(() => {
          entry.inFlight = undefined;
        });
        return entry.inFlight;
      }),
    );
    const parts = this.upstreams.flatMap(([name]) => {
      const entry = this.entries.get(name);
      return entry?.document ? [{ service: name, document: entry.document, fetchedAt: entry.fetchedAt }] : [];
    });
    const builtFrom = parts.map((p) => `${p.service}@${p.fetchedAt}`).join(',');
    if (this.merged?.builtFrom !== builtFrom) {
      const { document, warnings } = mergeOpenApiDocuments(parts, {
        title: 'ERP business API',
        version: '1',
        license: { name: 'Proprietary' },
        description:
          'Customers, supplier invoices and attachments (`/v1`), sales orders (`/api/v3`) and webhook subscriptions (`/api/webhooks`). ' +
          'Every request needs `Authorization: Bearer <JWT>`; `ipp-company-id` selects the company; `/v1` requests also need `ipp-application-type`. ' +
          'Errors: the v1 error body under `/v1`, `application/problem+json` elsewhere.',
      });
      const missing = this.upstreams.filter(([name]) => !parts.some((p) => p.service === name)).map(([name]) => name);
      if (missing.length > 0) document['x-unavailable-services'] = missing;
      for (const warning of warnings) this.logger.warn(warning);
      this.merged = { json: JSON.stringify(document), builtFrom };
    }
    return this.merged.json;
  }

  private async fetchWithRetry(name: UpstreamName, url: string, entry: Entry, attempts: number): Promise<void> {
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      try {
        const response = await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(this.settings.fetchTimeoutMs) });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        entry.document = (await response.json()) as OpenApiDoc;
        entry.fetchedAt = Date.now();
        return;
      } catch (err) {
        if (attempt === attempts) {
          entry.failedAt = Date.now();
          this.logger.warn(`API document of ${name} unavailable (${(err as Error).message}); left out of /openapi.json for now`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      }
    }
  }
}
