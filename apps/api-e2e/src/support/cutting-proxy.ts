import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP proxy in front of `target` that loses the answer of a write: a request it is told to cut
 * is sent on whole and answered by the target (the write applied, or not), and then its client's
 * connection is closed without a byte of that answer, as a network that times out does. Every
 * other request passes through. `cut(request)` decides; `onAnswerStart` runs when the target's
 * answer begins, before anything is passed back (the crash case kills the service there).
 */
export interface CuttingProxy {
  url: string;
  /** Requests cut so far. */
  cuts: Array<{ method: string; path: string; key: string | undefined }>;
  close(): Promise<void>;
}

export async function startCuttingProxy(
  target: string,
  options: { cut(method: string, path: string, headers: IncomingMessage['headers']): boolean; onAnswerStart?(): Promise<void> },
): Promise<CuttingProxy> {
  const cuts: CuttingProxy['cuts'] = [];
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined || ['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)) continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const method = request.method ?? 'GET';
      const path = request.url ?? '/';
      const cut = options.cut(method, path, request.headers);
      try {
        const answer = await fetch(`${target}${path}`, { method, headers, body: body.length > 0 ? body : undefined, redirect: 'manual' });
        if (cut) {
          await options.onAnswerStart?.();
          await answer.arrayBuffer().catch(() => undefined);
          const key = request.headers['idempotency-key'];
          cuts.push({ method, path, key: Array.isArray(key) ? key[0] : key });
          request.socket.destroy();
          return;
        }
        const payload = Buffer.from(await answer.arrayBuffer());
        const passed: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding', 'keep-alive'].includes(name)) passed[name] = value;
        });
        response.writeHead(answer.status, passed).end(payload);
      } catch {
        // The target went away under the request (the crash case): the client sees a cut connection.
        request.socket.destroy();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cuts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
