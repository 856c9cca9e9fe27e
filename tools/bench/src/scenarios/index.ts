import type { BenchScenario } from '../framework/scenario';
import { attachmentsScenario } from './attachments.scenario';
import { customersListScenario } from './customers-list.scenario';
import { filteredPagingScenario } from './filtered-paging.scenario';
import { mixedScenario } from './mixed.scenario';
import { requestStagesScenario } from './request-stages.scenario';
import { salesOrdersExpandScenario } from './sales-orders-expand.scenario';
import { webhookLatencyScenario } from './webhook-latency.scenario';

/** Every scenario `npm run bench` runs, in order. Add yours here (one line). */
export const SCENARIOS: BenchScenario[] = [customersListScenario, salesOrdersExpandScenario, mixedScenario, attachmentsScenario, webhookLatencyScenario, filteredPagingScenario, requestStagesScenario];
