export { copyField, copyRows, type CopyValue } from './data/copy-rows';
export { customerRows, loadCustomers, STATUS_MIX, type CompanyCustomers, type LoadCustomersOptions, type LoadReport } from './data/customers.generator';
export { SeededRandom } from './data/random';
export { runLoad, round, type LoadMeasurement, type LoadOptions } from './framework/load';
export { measureTargets, type LoadTarget } from './framework/measure';
export { sampleMemory, type ProcessMemory } from './framework/process-memory';
export { markdownReport, updateBenchmarksDoc, writeResults } from './framework/report';
export {
  machineInfo,
  runBench,
  runScenarios,
  startBenchSystem,
  type BenchResults,
  type MachineInfo,
  type RunBenchOptions,
  type ScenarioRunOptions,
} from './framework/run-bench';
export { check, type BenchContext, type BenchScenario, type LoadSettings, type ScenarioCase, type ScenarioReport, type TargetCheck } from './framework/scenario';
export { createCustomersBaseline, type CustomersBaselineOptions } from './baseline/customers-baseline';
export { SCENARIOS } from './scenarios';
