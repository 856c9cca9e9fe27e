#!/usr/bin/env node
// `erp` bin (after `npm link` in the repository): runs the TypeScript sources through SWC, like the
// npm scripts do, with the repository's tsconfig (path aliases) whatever the current directory is.
const { join } = require('node:path');
process.env.SWC_NODE_PROJECT ??= join(__dirname, '..', '..', '..', 'tsconfig.json');
require('@swc-node/register');
require('../src/main.ts');
