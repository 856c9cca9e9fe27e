/** @type {import('jest').Config} */
module.exports = {
  displayName: 'sales-orders-v3',
  preset: '../../jest.preset.js',
};
