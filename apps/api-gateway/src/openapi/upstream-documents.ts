import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown, Optional } from '@nestjs/common';
import type { HealthIndicatorResult } from '@nestjs/terminus';
import type { OpenApiDoc } from '@erp/openapi';
import { ReadinessChecks } from '@erp/observability';
import type { GatewayConfig } from '../config';
import { UPSTREAM_ORDER, type UpstreamName, upstreamUrlsFrom } from '../proxy/routes';

export interface DocumentSettings {
  /**
   * Attempts at start-up per service (one a second) before it is skipped until asked again. A
   * minute: the gateway starts beside the services, which migrate before they listen, and on a
   * loaded 2-core machine that took more than the ten seconds this once was.
   */
  startupAttempts: number;
  /** Every document is fetched again this often in the background: routes a new release added. */
  refreshEveryMs: number;
  /** A service whose document has never been read is asked again at most this often when wanted. */
  retryMissingAfterMs: number;
  fetchTimeoutMs: number;
}

export const DOCUMENT_SETTINGS: DocumentSettings = { startupAttempts: 60, refreshEveryMs: 30_000, retryMissingAfterMs: 5_000, fetchTimeoutMs: 3_000 };

export interface UpstreamDocument {
  service: UpstreamName;
  document: OpenApiDoc;
  fetchedAt: number;
}

interface Entry {
  urls: string[];
  document?: OpenApiDoc;
  fetchedAt: number;
  /** When it was last asked (answered or not), for the refresh on a missed route. */
  askedAt: number;
  inFlight?: Promise<void>;
}

type Listener = (upstream: UpstreamName, document: OpenApiDoc) => void;

/**
 * Each configured service's public `/openapi.json`: what the gateway routes (GatewayRoutes) and
 * merges (OpenApiAggregator). Fetched at start-up in the background (retried a minute: services
 * start beside the gateway), again every 30 s, and on demand; from each replica in turn until one
 * answers. A service that never answered is left out until it does.
 */
@Injectable()
export class UpstreamDocuments implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('UpstreamDocuments');
  private readonly entries = new Map<UpstreamName, Entry>();
  private readonly listeners: Listener[] = [];
  private readonly settings = DOCUMENT_SETTINGS;
  private timer?: NodeJS.Timeout;
  private bootstrappedAt = Date.now();

  constructor(
    @Inject('GATEWAY_CONFIG') config: GatewayConfig,
    @Optional() private readonly readiness?: ReadinessChecks,
  ) {
    const urls = upstreamUrlsFrom(config);
    for (const name of UPSTREAM_ORDER) {
      const list = urls[name];
      if (list) this.entries.set(name, { urls: list, fetchedAt: 0, askedAt: 0 });
    }
  }

  onDocument(listener: Listener): void {
    this.listeners.push(listener);
  }

  onApplicationBootstrap(): void {
    this.bootstrappedAt = Date.now();
    for (const [name, entry] of this.entries) this.fetch(name, entry, this.settings.startupAttempts);
    this.timer = setInterval(() => void this.refresh(this.settings.refreshEveryMs), this.settings.refreshEveryMs).unref();
    this.readiness?.add(() => this.readinessCheck());
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /**
   * Fetches again every document last asked more than `olderThanMs` ago, and one never read when
   * last asked more than `retryMissingAfterMs` ago (waiting for those under way).
   */
  async refresh(olderThanMs: number): Promise<void> {
    const now = Date.now();
    await Promise.all(
      [...this.entries].map(([name, entry]) => {
        if (entry.inFlight) return entry.inFlight;
        const after = entry.document ? olderThanMs : Math.min(olderThanMs, this.settings.retryMissingAfterMs);
        return now - entry.askedAt >= after ? this.fetch(name, entry, 1) : undefined;
      }),
    );
  }

  /** The documents read so far, in the services' order. */
  current(): UpstreamDocument[] {
    return [...this.entries].flatMap(([service, entry]) => (entry.document ? [{ service, document: entry.document, fetchedAt: entry.fetchedAt }] : []));
  }

  /** The configured services whose document has never been read. */
  missing(): UpstreamName[] {
    return [...this.entries].filter(([, entry]) => !entry.document).map(([name]) => name);
  }

  /**
   * Ready once every service's routes are known, or once the start-up attempts are over (a
   * service still down then must not keep the others' routes out of service).
   */
  readinessCheck(): HealthIndicatorResult<'routes'> {
    const missing = this.missing();
    if (missing.length === 0) return { routes: { status: 'up' } };
    const waited = Date.now() - this.bootstrappedAt > this.settings.startupAttempts * 1_000;
    return { routes: { status: waited ? 'up' : 'down', unknown: missing.join(', ') } };
  }

  private fetch(name: UpstreamName, entry: Entry, attempts: number): Promise<void> {
    entry.inFlight ??= this.fetchWithRetry(name, entry, attempts).finally(() => {
      entry.inFlight = undefined;
    });
    return entry.inFlight;
  }

  private async fetchWithRetry(name: UpstreamName, entry: Entry, attempts: number): Promise<void> {
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      entry.askedAt = Date.now();
      const document = await this.fetchFromAnyReplica(entry.urls);
      if (document) {
        entry.document = document;
        entry.fetchedAt = Date.now();
        for (const listener of this.listeners) listener(name, document);
        return;
      }
      if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
    }
    this.logger.warn(`API document of ${name} unavailable; ${entry.document ? 'keeping the last one read' : 'its routes are unknown for now'}`);
  }

  private async fetchFromAnyReplica(urls: string[]): Promise<OpenApiDoc | undefined> {
    for (const url of urls) {
      try {
        const response = await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(this.settings.fetchTimeoutMs) });
        if (response.ok) return (await response.json()) as OpenApiDoc;
      } catch {
        // the next replica, if any
      }
    }
    return undefined;
  }
}
