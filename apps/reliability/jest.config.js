/** @type {import('jest').Config} */
module.exports = {
  displayName: 'reliability',
  preset: '../../jest.preset.js',
  // Each suite starts the whole system as processes: one at a time (two on two cores starve).
  maxWorkers: 1,
};
