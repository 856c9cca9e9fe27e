import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Read chunk of the floor's downloads: a multiple of 3, so each chunk is Base64-encoded on its own. */
const READ_CHUNK = 3 * 64 * 1024;

/**
 * The Node floor for attachment transfers: node:http and fs, nothing else (no framework, gateway,
 * multipart parser, database, auth or logging). `POST /files` streams the raw request body (no multipart) to a new
 * file in `dir` while hashing it (SHA-256), fsyncs it and answers `{ id, size, sha256 }` (201);
 * `GET /files/{id}` streams the file back raw, or as Base64 text with `Accept: text/plain`. It is
 * what one HTTP stream in and out of a file costs Node on this machine, next to the disk copy
 * (what the kernel alone does): attachments-v1 also parses multipart and commits to PostgreSQL.
 */
export function createAttachmentsFloor(options: { dir: string }): { server: Server; close(): Promise<void> } {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const fail = (error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
      else response.destroy();
    };
    if (path === '/health/ready') {
      response.writeHead(200).end('ok');
    } else if (request.method === 'POST' && path === '/files') {
      receive(options.dir, request).then((stored) => response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(stored)), fail);
    } else if (request.method === 'GET' && /^\/files\/[0-9a-f-]{36}$/.test(path)) {
      const base64 = request.headers.accept === 'text/plain';
      response.writeHead(200, { 'content-type': base64 ? 'text/plain' : 'application/octet-stream' });
      const file = createReadStream(join(options.dir, path.slice('/files/'.length)), { highWaterMark: READ_CHUNK });
      const body = base64 ? [file, new Transform({ transform: (chunk: Buffer, _e, done) => done(null, chunk.toString('base64')) })] : [file];
      pipeline([...body, response]).catch(fail);
    } else {
      response.writeHead(404).end();
    }
  });
  return {
    server,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(options.dir, { recursive: true, force: true });
    },
  };
}

async function receive(dir: string, body: NodeJS.ReadableStream): Promise<{ id: string; size: number; sha256: string }> {
  await mkdir(dir, { recursive: true });
  const id = randomUUID();
  const path = join(dir, id);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _e, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // The same 1 MiB write-ahead as attachments-v1's filesystem driver: the best plain Node does.
  await pipeline(body, meter, createWriteStream(path, { highWaterMark: 1024 * 1024 }));
  const handle = await open(path, 'r');
  await handle.sync().finally(() => handle.close());
  return { id, size, sha256: hash.digest('hex') };
}
