export { previousRelease, type Release, releaseLineProblems, releases, RELEASES_FILE, REPOSITORY_ROOT } from './releases';
export { type BreakingChange, type ContractKind, describeBreakingChanges } from './contracts/breaking-change';
export { breakingChanges } from './contracts/contract-compat';
export { CONTRACT_FILES, contractsDirOf, type ReleaseContracts, recordedContracts } from './contracts/recorded-contracts';
export type { EventsDoc } from './contracts/event-compat';
export type { WebhookCatalogue } from './contracts/webhook-compat';
export { checkoutRelease, type ReleaseCheckout } from './release-checkout';
