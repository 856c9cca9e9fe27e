import { resolve } from 'node:path';

/** The repository root (tools/dev/src -> ../../..). */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..');

/** Everything the embedded default keeps on disk: Postgres data, dev keys, attachment bytes. */
export const DATA_DIR = process.env.ERP_DATA_DIR ?? resolve(REPO_ROOT, '.data');

export const DEV_KEYS_DIR = resolve(DATA_DIR, 'dev-keys');
