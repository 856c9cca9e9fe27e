import Decoder from 'kafkajs/src/protocol/decoder';
import Encoder from 'kafkajs/src/protocol/encoder';

/** Thrown when a request does not match the schema we expect; the connection is then closed. */
export class MalformedRequestError extends Error {}

/**
 * Typed reader over kafkajs's Decoder. Requests are non-flexible (pre-KIP-482) except ApiVersions
 * v3, whose compact strings and tagged fields are read with the compact* and taggedFields methods.
 * Arrays are read here (not with Decoder.readArray) because some APIs give a null array a meaning of
 * its own ("all topics").
 */
export class RequestReader {
  private readonly decoder: Decoder;

  constructor(buffer: Buffer) {
    this.decoder = new Decoder(buffer);
  }

  int8(): number {
    return this.decoder.readInt8();
  }

  int16(): number {
    return this.decoder.readInt16();
  }

  int32(): number {
    return this.decoder.readInt32();
  }

  /** Offsets, timestamps and producer ids stay far below 2^53 here, so a number is exact. */
  int64(): number {
    return Number(this.decoder.readInt64());
  }

  boolean(): boolean {
    return this.decoder.readBoolean();
  }

  string(): string {
    const value = this.decoder.readString();
    if (value === null) throw new MalformedRequestError('unexpected null string');
    return value;
  }

  nullableString(): string | null {
    return this.decoder.readString();
  }

  /** The returned buffer shares memory with the request; copy it before keeping or changing it. */
  bytes(): Buffer | null {
    return this.decoder.readBytes();
  }

  /** Compact (KIP-482) nullable string: its length + 1 as an unsigned varint, 0 for null. */
  compactNullableString(): string | null {
    return this.decoder.readUVarIntString();
  }

  /** Skips a tagged-field section; no tag means anything to this broker (KIP-482 lets it ignore them). */
  taggedFields(): void {
    const count = this.decoder.readUVarInt();
    for (let i = 0; i < count; i++) {
      this.decoder.readUVarInt(); // tag
      const size = this.decoder.readUVarInt();
      if (!this.decoder.canReadBytes(size)) throw new MalformedRequestError('tagged field past the end');
      this.decoder.readBytes(size);
    }
  }

  array<T>(readItem: (reader: RequestReader) => T): T[] {
    return this.nullableArray(readItem) ?? [];
  }

  nullableArray<T>(readItem: (reader: RequestReader) => T): T[] | null {
    const length = this.int32();
    if (length < 0) return null;
    const items: T[] = [];
    for (let i = 0; i < length; i++) items.push(readItem(this));
    return items;
  }
}

/** Fluent writer over kafkajs's Encoder for responses. */
export class ResponseWriter {
  private readonly encoder = new Encoder();

  int8(value: number): this {
    this.encoder.writeInt8(value);
    return this;
  }

  int16(value: number): this {
    this.encoder.writeInt16(value);
    return this;
  }

  int32(value: number): this {
    this.encoder.writeInt32(value);
    return this;
  }

  int64(value: number): this {
    this.encoder.writeInt64(value);
    return this;
  }

  boolean(value: boolean): this {
    this.encoder.writeBoolean(value);
    return this;
  }

  string(value: string | null): this {
    this.encoder.writeString(value);
    return this;
  }

  bytes(value: Buffer | null): this {
    this.encoder.writeBytes(value);
    return this;
  }

  /** Raw bytes with no length prefix. */
  raw(value: Buffer): this {
    this.encoder.writeBuffer(value);
    return this;
  }

  array<T>(items: readonly T[], writeItem: (writer: this, item: T) => void): this {
    this.encoder.writeInt32(items.length);
    for (const item of items) writeItem(this, item);
    return this;
  }

  int32Array(items: readonly number[]): this {
    return this.array(items, (writer, item) => writer.int32(item));
  }

  /** Compact (KIP-482) array: its length + 1 as an unsigned varint. */
  compactArray<T>(items: readonly T[], writeItem: (writer: this, item: T) => void): this {
    this.encoder.writeUVarInt(items.length + 1);
    for (const item of items) writeItem(this, item);
    return this;
  }

  /** An empty tagged-field section: the broker sends no tags. */
  noTaggedFields(): this {
    this.encoder.writeUVarInt(0);
    return this;
  }

  /** Writes what only some versions of a message carry, e.g. `.when(apiVersion >= 1, ...)`. */
  when(condition: boolean, write: (writer: this) => void): this {
    if (condition) write(this);
    return this;
  }

  get buffer(): Buffer {
    return this.encoder.buffer;
  }
}
