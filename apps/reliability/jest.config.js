/** @type {import('jest').Config} */
module.exports = {
  displayName: 'reliability',
  preset: '../../jest.preset.js',
  // Each suite starts the whole system as processes: two at a time on two cores. (Two used to
  // time out waiting for events: the systems shared consumer groups on the one test broker, fixed
  // in libs/messaging; see RELIABILITY.md "Found and fixed".)
  maxWorkers: 2,
};
