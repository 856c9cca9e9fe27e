import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';

/** A destination that respects backpressure, so a 100k-record export never buffers in memory. */
export interface Output {
  write(chunk: string | Buffer): Promise<void>;
  /** Flushes and closes a file; leaves stdout open. */
  close(): Promise<void>;
}

export function writableOutput(stream: Writable, owned: boolean): Output {
  return {
    async write(chunk) {
      if (!stream.write(chunk)) await once(stream, 'drain');
    },
    async close() {
      if (!owned) return;
      stream.end();
      await once(stream, 'finish');
    },
  };
}

/** `--out file` (created or truncated) or stdout. Opening errors surface on the first await. */
export async function openOutput(path: string | undefined, stdout: Writable): Promise<Output> {
  if (path === undefined || path === '-') return writableOutput(stdout, false);
  const file = createWriteStream(path);
  await once(file, 'open');
  return writableOutput(file, true);
}
