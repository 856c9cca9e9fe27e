import { Inject, Injectable, Logger } from '@nestjs/common';
import { NAME_COUNT_POLICY } from './name-count-policy';
import { NAME_COUNT_SETTINGS, type NameCountSettings } from './name-count-settings';
import { NameFragmentsRepository } from './repository/name-fragments.repository';
import { NameRegistrationLimits, type RegistrationClaim } from './repository/name-registration-limits.repository';

/**
 * What register() did: counted it now; found it registered (or being built or dropped); left it
 * for later because the company replaced a kept fragment too recently (`throttled`) or another
 * registration of the company runs, in this replica or another (`busy`).
 */
export type Registration = 'registered' | 'exists' | 'throttled' | 'busy';

/**
 * Registers one `name` fragment of a company, so that its next requests read kept counts, without
 * ever making a writer of the company wait (issue 31), in short transactions of its own:
 * 0. claims the company's registration (one at a time per company, across replicas) and, when the
 *    company keeps `perCompany` fragments already, checks it replaced none in the last
 *    `replaceIntervalMs` (NameRegistrationLimits);
 * 1. inserts the fragment as `building`: from the next statement on, the writers' triggers add
 *    their deltas to its cells (reads ignore it);
 * 2. waits until every transaction that had an xid when step 1 committed has ended (polling
 *    pg_stat_activity, no lock): those are the only writes whose trigger may not have seen it;
 * 3. in one REPEATABLE READ snapshot, read only, the exact counts from the rows minus the cells the
 *    snapshot sees (`customer_name_fragment_adjustments`);
 * 4. adds those to the cells, `adjustChunk` per statement, then marks it `ready`;
 * 5. drops the least recently used beyond `perCompany`: marked `retiring` (the triggers skip it),
 *    the writes that saw it waited for as in 2, then deleted with its cells.
 * One that fails drops its fragment again; it only ever costs speed.
 */
@Injectable()
export class NameFragmentRegistration {
  private readonly logger = new Logger(NameFragmentRegistration.name);

  constructor(
    private readonly fragments: NameFragmentsRepository,
    private readonly limits: NameRegistrationLimits,
    @Inject(NAME_COUNT_SETTINGS) private readonly settings: NameCountSettings,
  ) {}

  async register(companyId: string, fragment: string, perCompany: number): Promise<Registration> {
    const claim = await this.limits.claim(companyId);
    if (!claim) return 'busy';
    try {
      return await this.registerClaimed(claim, fragment, perCompany);
    } finally {
      // Not released (the database gone): the lease lapses and frees the company all the same.
      await claim.release().catch((error: unknown) => this.logger.warn(`name counts: claim of company ${companyId} not released: ${String(error)}`));
    }
  }

  private async registerClaimed(claim: RegistrationClaim, fragment: string, perCompany: number): Promise<Registration> {
    const { companyId } = claim;
    const replacing = (await this.fragments.kept(companyId)) >= perCompany;
    if (replacing && !(await claim.replacementDue(this.settings.replaceIntervalMs))) return 'throttled';
    const id = await this.fragments.insertBuilding(companyId, fragment);
    if (id === undefined) {
      await this.retire(companyId, await this.fragments.abandoned(companyId, fragment));
      return 'exists';
    }
    if (replacing) await claim.stampReplacement();
    try {
      await this.waitForOpenWrites();
      await claim.keep();
      const adjustments = await this.fragments.adjustments(companyId, id);
      for (let start = 0; start < adjustments.length; start += NAME_COUNT_POLICY.adjustChunk) {
        await claim.keep();
        await this.fragments.addToCells(companyId, id, adjustments.slice(start, start + NAME_COUNT_POLICY.adjustChunk));
      }
      await this.fragments.markReady(id);
    } catch (error) {
      // Left `retiring` if its writes are still open: the company's next registration deletes it.
      await this.retire(companyId, [id]).catch((retireError: unknown) =>
        this.logger.warn(`name counts of ${JSON.stringify(fragment)} not dropped yet: ${String(retireError)}`),
      );
      throw error;
    }
    await claim.keep();
    await this.retire(companyId, await this.fragments.leastRecentlyUsed(companyId, perCompany));
    return 'registered';
  }

  /**
   * Step 2: returns once every transaction of this database that holds an xid now has ended. A
   * write whose trigger read the fragments before the caller's last commit already had its xid then.
   */
  private async waitForOpenWrites(): Promise<void> {
    const open = await this.fragments.openWrites();
    if (open.pids.length === 0) return;
    for (const deadline = Date.now() + NAME_COUNT_POLICY.openWritesWaitMs; ; ) {
      const left = await this.fragments.stillOpen(open);
      if (left === 0) return;
      if (Date.now() > deadline) throw new Error(`${left} transactions stayed open for ${NAME_COUNT_POLICY.openWritesWaitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, NAME_COUNT_POLICY.openWritesPollMs));
    }
  }

  /**
   * Step 5: drops fragments (and any another drop left `retiring`) without a writer waiting: once
   * `retiring` is committed no new statement touches their cells, and the delete waits for those
   * that had begun.
   */
  private async retire(companyId: string, ids: string[]): Promise<void> {
    if (ids.length > 0) await this.fragments.markRetiring(ids);
    const retiring = await this.fragments.retiring(companyId);
    if (retiring.length === 0) return;
    await this.waitForOpenWrites();
    await this.fragments.deleteRetiring(retiring);
  }
}
