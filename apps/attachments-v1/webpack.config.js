// The image build of attachments-v1: `npx nx build attachments-v1` -> dist/apps/attachments-v1 (see tools/build).
const { appWebpackConfig } = require('../../tools/build/app-webpack-config');

module.exports = appWebpackConfig(__dirname, { migrate: true });
