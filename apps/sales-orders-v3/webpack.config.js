// The image build of sales-orders-v3: `npx nx build sales-orders-v3` -> dist/apps/sales-orders-v3 (see tools/build).
const { appWebpackConfig } = require('../../tools/build/app-webpack-config');

module.exports = appWebpackConfig(__dirname, { migrate: true });
