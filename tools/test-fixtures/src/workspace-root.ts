import path from 'node:path';

/**
 * The repository root. Not Jest's `rootDir`: each project's jest.config.js has its own, while the
 * fixtures (tsconfig.base.json's aliases, `.data/`) belong to the workspace.
 */
export const WORKSPACE_ROOT = path.resolve(__dirname, '..', '..', '..');
