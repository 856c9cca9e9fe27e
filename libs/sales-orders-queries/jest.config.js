/** @type {import('jest').Config} */
module.exports = {
  displayName: 'sales-orders-queries',
  preset: '../../jest.preset.js',
};
