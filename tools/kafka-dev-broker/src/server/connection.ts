import { Socket } from 'node:net';
import { readRequestHeader, RequestHeader } from '../api';
import { KafkaDevBrokerLogger } from '../logger';
import { RequestReader } from '../protocol/codec';

/** Runs one request and returns the response body, or null when no response is due. */
export type RequestDispatcher = (
  header: RequestHeader,
  body: RequestReader,
  clientHost: string,
) => Promise<Buffer | null>;

const SIZE_PREFIX = 4;
/** Far above anything kafkajs sends by default (1 MB batches); a larger frame means a confused peer. */
const MAX_FRAME_SIZE = 100 * 1024 * 1024;

/**
 * Kafka framing on one client socket: every request and response is an int32 size followed by that
 * many bytes. Requests are dispatched as soon as they are complete and answered when done, so a
 * parked JoinGroup or long-polling Fetch does not hold up the requests behind it; clients match
 * responses to requests by correlation id.
 */
export class BrokerConnection {
  private chunks: Buffer[] = [];
  private bufferedBytes = 0;
  private bytesNeeded = SIZE_PREFIX;
  private readonly clientHost: string;

  constructor(
    private readonly socket: Socket,
    private readonly dispatch: RequestDispatcher,
    private readonly logger: KafkaDevBrokerLogger,
  ) {
    this.clientHost = `/${socket.remoteAddress ?? 'unknown'}`;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    // Clients vanish without notice (crashes, tests); the socket's 'close' handles the cleanup.
    socket.on('error', (error) => this.logger.debug('client socket error', { error: error.message }));
  }

  private receive(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bufferedBytes += chunk.length;
    // Concatenate only once a whole frame has arrived, so a large request costs one copy, not one per chunk.
    while (this.bufferedBytes >= this.bytesNeeded) {
      const buffered = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      const frameSize = buffered.readInt32BE(0);
      if (frameSize < 0 || frameSize > MAX_FRAME_SIZE) {
        this.close('invalid request size', { frameSize });
        return;
      }
      if (buffered.length < SIZE_PREFIX + frameSize) {
        this.chunks = [buffered];
        this.bytesNeeded = SIZE_PREFIX + frameSize;
        return;
      }
      const frame = buffered.subarray(SIZE_PREFIX, SIZE_PREFIX + frameSize);
      const rest = buffered.subarray(SIZE_PREFIX + frameSize);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.bufferedBytes = rest.length;
      this.bytesNeeded = SIZE_PREFIX;
      void this.process(frame);
    }
  }

  private async process(frame: Buffer): Promise<void> {
    let header: RequestHeader | undefined;
    try {
      const reader = new RequestReader(frame);
      header = readRequestHeader(reader);
      const body = await this.dispatch(header, reader, this.clientHost);
      if (body) this.respond(header.correlationId, body);
    } catch (error) {
      this.close('cannot handle request', {
        apiKey: header?.apiKey,
        apiVersion: header?.apiVersion,
        clientId: header?.clientId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Response header v0 (correlation id only): no API served here has a flexible response header. */
  private respond(correlationId: number, body: Buffer): void {
    if (this.socket.destroyed) return; // the client left (or the broker stopped) while we worked
    const header = Buffer.alloc(SIZE_PREFIX + 4);
    header.writeInt32BE(4 + body.length, 0);
    header.writeInt32BE(correlationId, SIZE_PREFIX);
    this.socket.write(Buffer.concat([header, body]));
  }

  private close(reason: string, context: Record<string, unknown>): void {
    if (this.socket.destroyed) return;
    this.logger.warn(`closing client connection: ${reason}`, { clientHost: this.clientHost, ...context });
    this.socket.destroy();
  }
}
