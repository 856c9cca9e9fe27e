import { once } from 'node:events';
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import { CliError } from '../cli-error';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';
import { startProgress } from '../progress';
import { attachmentOwner } from '../resources';

export interface UploadOptions {
  name?: string;
  contentType?: string;
}

/** `erp upload <owner-type> <owner-id> <file>`: prints the API's answer (`id`, `revision`, `sha256`...). */
export async function uploadCommand(context: CommandContext, ownerType: string, ownerId: string, file: string, options: UploadOptions): Promise<void> {
  const type = attachmentOwner(ownerType);
  const api = await context.api();
  // Opened before the request, so an unreadable file is a usage error; then streamed (constant memory).
  let handle: FileHandle;
  let size: number;
  try {
    handle = await open(file, 'r');
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      throw new Error('not a regular file');
    }
    size = stats.size;
  } catch (error) {
    throw new CliError(ExitCode.Usage, `cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const progress = startProgress(`Uploading ${basename(file)}`, 'bytes', context.stderr);
  progress.update(0, size);
  try {
    const created = await api.upload(
      { type, id: ownerId },
      {
        fileName: options.name ?? basename(file),
        data: handle.createReadStream(),
        contentType: options.contentType,
        onProgress: (bytes) => progress.update(bytes, Math.max(size, bytes)),
      },
    );
    progress.stop();
    context.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
  } finally {
    progress.stop();
    await handle.close().catch(() => undefined);
  }
}

/**
 * `erp download <attachment-id>`: the decoded bytes to `--out` or stdout, streamed (never the whole
 * file in memory). Binary is not written to a terminal.
 */
export async function downloadCommand(context: CommandContext, id: string, options: { out?: string }): Promise<void> {
  const toStdout = options.out === undefined || options.out === '-';
  if (toStdout && context.stdout.isTTY) {
    throw new CliError(ExitCode.Usage, 'refusing to write an attachment to the terminal: pass --out <file> or redirect stdout');
  }
  const api = await context.api();
  const { stream, size } = await api.download(id);
  const progress = startProgress(`Downloading ${id}`, 'bytes', context.stderr);
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      progress.update(received, size);
      done(null, chunk);
    },
  });
  try {
    if (toStdout) {
      await pipeline(stream, counter, context.stdout, { end: false });
    } else {
      const file = createWriteStream(options.out as string);
      await once(file, 'open');
      await pipeline(stream, counter, file);
    }
    progress.update(received, size ?? received);
  } finally {
    progress.stop();
  }
  if (!toStdout && context.stderr.isTTY) context.stderr.write(`Saved ${received} bytes to ${options.out}\n`);
}
