import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import type { NameCountObserver } from '@erp/customers-queries';
import { NAME_COUNT_POLICY } from './name-count-policy';
import { NAME_COUNT_SETTINGS, type NameCountSettings } from './name-count-settings';
import { NameFragmentRegistration } from './name-fragment-registration';
import { NameFragmentsRepository } from './repository/name-fragments.repository';
import { NameRegistrationLimits } from './repository/name-registration-limits.repository';

/**
 * Decides when a company's `name` fragment gets kept counts, from what the list reads tell it
 * (NameCountObserver): a fragment whose exact count found at least `minMatches` customers is
 * registered after the response, in the background (NameFragmentRegistration), so that its next
 * requests read its cells; a fragment whose counts answered is marked used now and then, and a
 * company keeps its `perCompany` most recently used ones.
 *
 * In this process, one registration per company runs at a time and up to `pendingPerCompany`
 * more wait their turn (later ones are asked for again by a later search). The limits that hold
 * across replicas are the database's (NameRegistrationLimits): one registration per company at a
 * time (`busy` when another replica's runs), one replacement per `replaceIntervalMs`, and a
 * fragment that did not register waits `retryAfterMs` before it is tried again.
 */
@Injectable()
export class NameCountScheduler implements NameCountObserver, BeforeApplicationShutdown {
  private readonly logger = new Logger(NameCountScheduler.name);
  /** This process's registration under way, per company. */
  private readonly running = new Map<string, Promise<void>>();
  /** Fragments waiting for their company's registration under way in this process. */
  private readonly waiting = new Map<string, string[]>();
  /** When this process last marked each (company, fragment) used: a mark per interval is enough. */
  private readonly markedAt = new Map<string, number>();
  private closing = false;

  constructor(
    private readonly registration: NameFragmentRegistration,
    private readonly limits: NameRegistrationLimits,
    private readonly fragments: NameFragmentsRepository,
    @Inject(NAME_COUNT_SETTINGS) private readonly settings: NameCountSettings,
  ) {}

  notCounted(companyId: string, fragment: string, matches: number): void {
    const { minMatches, perCompany } = this.settings;
    if (matches < minMatches || perCompany === 0 || this.closing) return;
    if (!this.running.has(companyId)) return this.start(companyId, fragment);
    const queue = this.waiting.get(companyId) ?? [];
    if (queue.length < NAME_COUNT_POLICY.pendingPerCompany && !queue.includes(fragment)) this.waiting.set(companyId, [...queue, fragment]);
  }

  counted(companyId: string, fragment: string): void {
    const key = JSON.stringify([companyId, fragment]);
    if (Date.now() - (this.markedAt.get(key) ?? 0) < NAME_COUNT_POLICY.useMarkIntervalMs) return;
    if (this.markedAt.size >= NAME_COUNT_POLICY.useMarksMax) this.markedAt.clear();
    this.markedAt.set(key, Date.now());
    this.fragments
      .markUsed(companyId, fragment)
      .catch((error: unknown) => this.logger.warn(`name counts of ${JSON.stringify(fragment)} not marked used: ${String(error)}`));
  }

  /** Settles the registrations under way (tests wait for them; shutdown lets them finish before the pool closes). */
  async settled(): Promise<void> {
    // A settled registration may start the next one waiting.
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.settled();
  }

  private start(companyId: string, fragment: string): void {
    this.running.set(
      companyId,
      this.attempt(companyId, fragment).finally(() => {
        this.running.delete(companyId);
        const [next, ...rest] = this.waiting.get(companyId) ?? [];
        if (rest.length > 0) this.waiting.set(companyId, rest);
        else this.waiting.delete(companyId);
        if (next !== undefined && !this.closing) this.start(companyId, next);
      }),
    );
  }

  /** One try: skipped while the fragment's retry is deferred; deferred when it did not register (failed, or there already). */
  private async attempt(companyId: string, fragment: string): Promise<void> {
    try {
      if (!(await this.limits.retryDue(companyId, fragment))) return;
      const outcome = await this.registration.register(companyId, fragment, this.settings.perCompany);
      if (outcome === 'exists') await this.limits.deferRetry(companyId, fragment, NAME_COUNT_POLICY.retryAfterMs);
    } catch (error) {
      this.logger.warn(`name counts of ${JSON.stringify(fragment)} not registered: ${String(error)}`);
      await this.limits
        .deferRetry(companyId, fragment, NAME_COUNT_POLICY.retryAfterMs)
        .catch((deferError: unknown) => this.logger.warn(`name counts of ${JSON.stringify(fragment)}: retry not deferred: ${String(deferError)}`));
    }
  }
}
