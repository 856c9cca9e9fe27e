/** @type {import('jest').Config} */
module.exports = {
  displayName: 'cli',
  preset: '../../jest.preset.js',
  // Its *.e2e-spec.ts suites start the whole system as processes: two at a time on two cores, as
  // in api-e2e, reliability and bench (Nx runs two projects at a time, nx.json "parallel").
  maxWorkers: 2,
};
