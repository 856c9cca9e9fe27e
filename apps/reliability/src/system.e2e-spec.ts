import { describeContention } from './cases/contention';
import { describeHostileInput } from './cases/hostile-input';
import { describeSchemaFuzz } from './cases/schema-fuzz';
import { describeTenantWalls, type TenantWorld } from './cases/tenant-walls';
import { writeFigures } from './support/figures';
import { A, B, calmSnapshot, type CompanyFixture, createFixture, type Harness, startHarness } from './support/system';

const C = '3000003';

/**
 * One running system (every service and the gateway as real processes) for the tenant walls,
 * hostile input and contention cases, in that order: the first two need a quiet database, the
 * last one writes a lot. Counts: CI by default, full with RELIABILITY_FULL=1 (see RELIABILITY.md).
 */
describe('reliability and security through the api-gateway', () => {
  let h: Harness;
  let world: TenantWorld;
  let a: CompanyFixture;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    h = await startHarness('system');
    // The attacker (C) has one record of each kind; the victim (B) has two, so B's second ids
    // exist nowhere in C. A is the company the hostile input runs as.
    const attacker = await createFixture(h, C, 'C');
    await createFixture(h, B, 'Bpad');
    const victim = await createFixture(h, B, 'B');
    a = await createFixture(h, A, 'A');
    world = {
      attacker,
      victim,
      victimSecrets: ['Secret B', 'PO-B', 'SUP-B', victim.attachmentId, victim.subscriptionId],
    };
    // Let the event consumers settle so the snapshots compare a quiet database.
    await calmSnapshot(h);
  }, 180_000);

  afterAll(async () => {
    figures['fiveHundreds'] = h?.statuses.filter((s) => s.status >= 500).length;
    figures['requestsThroughGateway'] = h?.statuses.length;
    writeFigures('system', figures);
    const failed = h?.statuses.filter((s) => s.status >= 500) ?? [];
    await h?.stop();
    expect(failed).toEqual([]);
  }, 60_000);

  describe('tenant walls', () => describeTenantWalls(() => h, () => world, figures));
  describe('hostile input', () => describeHostileInput(() => h, () => a, figures));
  describe('schema-driven fuzz of /openapi.json', () => describeSchemaFuzz(() => h, () => a, figures));
  describe('contention', () => describeContention(() => h, figures));
});
