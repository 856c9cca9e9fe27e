export { startSystem, type RunningSystem, type SystemOptions } from './system';
export { appLauncher, type AppBuild, type AppEntry } from './app-launcher';
export { seedCompany, demoCustomers } from './seed-data';
export { GATEWAY, SERVICES, type ServiceSpec } from './services';
export { DATA_DIR, DEV_KEYS_DIR } from './paths';
export { runTs, spawnTs, untilExitedOk, waitForReady, type SpawnedProcess } from './child-process';
export { startWebhookListener, type ListenedDelivery, type WebhookListener, type WebhookListenerOptions } from './webhook-listener';
export { demoSupplierInvoices, seedSupplierInvoices, type SeedSupplierInvoicesOptions } from './seed-supplier-invoices';
