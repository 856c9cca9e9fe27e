// A Kafka client that is nothing but the wire protocol, for specs that must see the bytes a
// broker answers (kafkajs and librdkafka hide them and negotiate versions on their own).
import { connect, Socket } from 'node:net';
import Decoder from 'kafkajs/src/protocol/decoder';
import Encoder from 'kafkajs/src/protocol/encoder';

export { Decoder, Encoder };

export interface RawRequestOptions {
  /** Request header v2 (KIP-482): header v1 followed by an empty tagged-field section. */
  flexibleHeader?: boolean;
}

interface Pending {
  resolve(body: Decoder): void;
  reject(error: Error): void;
}

/** One TCP connection; requests are framed by hand and responses matched by correlation id. */
export class RawKafkaClient {
  private nextCorrelationId = 1;
  private buffered = Buffer.alloc(0);
  private readonly pending = new Map<number, Pending>();
  private readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.once('close', () => {
      for (const { reject } of this.pending.values()) reject(new Error('connection closed by the broker'));
      this.pending.clear();
    });
  }

  static connect(port: number, host = '127.0.0.1'): Promise<RawKafkaClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port }, () => resolve(new RawKafkaClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends one request; resolves with the response body (after the v0 response header). */
  request(
    apiKey: number,
    apiVersion: number,
    writeBody: (body: Encoder) => void = () => undefined,
    options: RawRequestOptions = {},
  ): Promise<Decoder> {
    const correlationId = this.nextCorrelationId++;
    const message = new Encoder()
      .writeInt16(apiKey)
      .writeInt16(apiVersion)
      .writeInt32(correlationId)
      .writeString('raw-kafka-client');
    if (options.flexibleHeader) message.writeUVarInt(0);
    const body = new Encoder();
    writeBody(body);
    message.writeEncoder(body);
    const frame = new Encoder().writeInt32(message.size()).writeEncoder(message).buffer;
    return new Promise<Decoder>((resolve, reject) => {
      this.pending.set(correlationId, { resolve, reject });
      this.socket.write(frame);
    });
  }

  /** Resolves when the broker has closed the connection (what Kafka does with a request it cannot serve). */
  whenClosed(): Promise<void> {
    return this.closed;
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= 4 && this.buffered.length >= 4 + this.buffered.readInt32BE(0)) {
      const size = this.buffered.readInt32BE(0);
      const frame = this.buffered.subarray(4, 4 + size);
      this.buffered = this.buffered.subarray(4 + size);
      const correlationId = frame.readInt32BE(0);
      const waiting = this.pending.get(correlationId);
      this.pending.delete(correlationId);
      waiting?.resolve(new Decoder(frame.subarray(4)));
    }
  }
}

/** An int32-counted array, the non-flexible encoding. */
export function readArray<T>(response: Decoder, readItem: () => T): T[] {
  return Array.from({ length: response.readInt32() }, readItem);
}

/** The shape most responses share: topics, each a name and its partitions. */
export function readTopics<T>(response: Decoder, readPartition: () => T): [string | null, T[]][] {
  return readArray(response, () => [response.readString(), readArray(response, readPartition)]);
}

/**
 * Reads a response of `version` whose throttle time comes first from version `throttleSince` on
 * (checked to be 0), then `fields`, and checks that nothing follows.
 */
export function readToEnd<T>(response: Decoder, version: number, throttleSince: number, fields: () => T): T {
  if (version >= throttleSince && response.readInt32() !== 0) throw new Error('throttle_time_ms is not 0');
  const values = fields();
  const left = bytesLeft(response);
  if (left !== 0) throw new Error(`${left} bytes left after the last field of a v${version} response`);
  return values;
}

/** The bytes not read yet: none once a response has been parsed to its exact end. */
export function bytesLeft(decoder: Decoder): number {
  return decoder.readAll().length;
}
