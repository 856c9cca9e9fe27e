import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAttachmentsFloor } from './attachments-floor';
import { serveBaseline } from './serve-baseline';

/** The floor as its own process (as the services run): STORAGE_DIR (removed on SIGTERM), PORT, HOST. */
serveBaseline('attachments-floor', createAttachmentsFloor({ dir: process.env['STORAGE_DIR'] ?? join(tmpdir(), `erp-attachments-floor-${process.pid}`) }));
