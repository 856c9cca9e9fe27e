import { asyncApiDocument } from '@erp/contracts';
import { previousRelease } from '../releases';
import { describeBreakingChanges } from './breaking-change';
import { breakingChanges } from './contract-compat';
import type { EventsDoc } from './event-compat';
import { recordedContracts } from './recorded-contracts';

// The working tree's events against the last release's (releases/releases.json, last entry). The
// HTTP document and the webhook catalogue come from the running system: apps/api-e2e
// contracts-vs-release.e2e-spec.ts compares those.
describe(`the events of the working tree against the last release (${previousRelease().version})`, () => {
  it('have no breaking change (a breaking one needs a new topic major, the old topic still served)', () => {
    const released = recordedContracts(previousRelease().version);
    const current = asyncApiDocument() as unknown as EventsDoc;
    expect(describeBreakingChanges(breakingChanges({ asyncapi: released.asyncapi }, { asyncapi: current }))).toEqual([]);
  });
});
