/** @type {import('jest').Config} */
module.exports = {
  displayName: 'kafka-dev-broker',
  preset: '../../jest.preset.js',
};
