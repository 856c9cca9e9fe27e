// Types for the parts of kafkajs's (untyped, CommonJS) protocol layer that the dev broker reuses.
// Only what we call is declared; the shapes mirror node_modules/kafkajs/src/protocol/*.

declare module 'kafkajs/src/protocol/encoder' {
  class Encoder {
    constructor(initialSize?: number);
    readonly buffer: Buffer;
    writeInt8(value: number): this;
    writeInt16(value: number): this;
    writeInt32(value: number): this;
    writeUInt32(value: number): this;
    writeInt64(value: number | bigint | string): this;
    writeBoolean(value: boolean): this;
    writeString(value: string | null): this;
    writeBytes(value: Buffer | string | null): this;
    writeBuffer(value: Buffer): this;
    writeUVarInt(value: number): this;
    writeUVarIntString(value: string | null): this;
    writeEncoder(value: Encoder): this;
    size(): number;
  }
  export = Encoder;
}

declare module 'kafkajs/src/protocol/decoder' {
  class Decoder {
    constructor(buffer: Buffer);
    offset: number;
    readInt8(): number;
    readInt16(): number;
    readInt32(): number;
    /** kafkajs 2.x returns a BigInt here. */
    readInt64(): bigint;
    readBoolean(): boolean;
    readString(): string | null;
    readBytes(length?: number): Buffer | null;
    readUVarInt(): number;
    /** Everything not read yet. */
    readAll(): Buffer;
    /** Compact (KIP-482) string: length + 1 as an unsigned varint, 0 for null. */
    readUVarIntString(): string | null;
    canReadBytes(length: number): boolean;
  }
  export = Decoder;
}

declare module 'kafkajs/src/protocol/recordBatch/crc32C' {
  /** CRC-32C (Castagnoli) as an unsigned 32-bit number. */
  function crc32C(buffer: Buffer): number;
  export = crc32C;
}

declare module 'kafkajs/src/protocol/recordBatch/v0/decoder' {
  import Decoder = require('kafkajs/src/protocol/decoder');

  interface DecodedRecord {
    offset: string;
    timestamp: string;
    key: Buffer | null;
    value: Buffer | null;
  }
  function decodeRecordBatch(decoder: Decoder): Promise<{ firstOffset: string; records: DecodedRecord[] }>;
  export = decodeRecordBatch;
}

declare module 'kafkajs/src/protocol/recordBatch/v0' {
  import Encoder = require('kafkajs/src/protocol/encoder');

  export function RecordBatch(options: {
    firstOffset?: number;
    firstTimestamp?: number;
    maxTimestamp?: number;
    lastOffsetDelta?: number;
    producerId?: number;
    producerEpoch?: number;
    firstSequence?: number;
    records: Encoder[];
  }): Promise<Encoder>;
}

declare module 'kafkajs/src/protocol/recordBatch/record/v0' {
  import Encoder = require('kafkajs/src/protocol/encoder');

  function Record(options: {
    offsetDelta?: number;
    timestampDelta?: number;
    key?: Buffer | string | null;
    value?: Buffer | string | null;
    headers?: Record<string, Buffer | string>;
  }): Encoder;
  export = Record;
}
