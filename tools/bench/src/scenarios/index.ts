import type { BenchScenario } from '../framework/scenario';
import { customersListScenario } from './customers-list.scenario';

/** Every scenario `npm run bench` runs, in order. Add yours here (one line). */
export const SCENARIOS: BenchScenario[] = [customersListScenario];
