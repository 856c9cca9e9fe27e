export { startSystem, type RunningSystem, type SystemOptions } from './system';
export { seedCompany, demoCustomers } from './seed-data';
