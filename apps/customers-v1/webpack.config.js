// The image build of customers-v1: `npx nx build customers-v1` -> dist/apps/customers-v1 (see tools/build).
const { appWebpackConfig } = require('../../tools/build/app-webpack-config');

module.exports = appWebpackConfig(__dirname, { migrate: true });
