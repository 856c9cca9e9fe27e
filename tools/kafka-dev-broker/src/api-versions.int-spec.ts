import { KafkaDevBroker } from './kafka-dev-broker';
import { bytesLeft, Decoder, RawKafkaClient } from './testing/raw-kafka-client';
import { TestResources } from './testing/kafkajs-test-kit';
import { SERVED_VERSIONS } from './testing/served-versions';

const API_VERSIONS = 18;
const UNSUPPORTED_VERSION = 35;

const ignore = (): void => undefined;

type Ranges = Record<number, [min: number, max: number]>;
const SERVED = SERVED_VERSIONS as Ranges;

/**
 * librdkafka 2.0.2's feature map (src/rdkafka_feature.c): a feature is on when every listed range
 * overlaps the broker's. Without MSGVER2 it cannot produce or fetch record batches, without
 * BROKER_BALANCED_CONSUMER `kcat -G` fails with "Required feature not supported by broker".
 */
const LIBRDKAFKA_FEATURES: Record<string, Ranges> = {
  MSGVER2: { 0: [3, 3], 1: [4, 4] },
  APIVERSION: { 18: [0, 0] },
  BROKER_GROUP_COORD: { 10: [0, 0] },
  BROKER_BALANCED_CONSUMER: {
    10: [0, 0],
    8: [1, 2],
    9: [1, 1],
    11: [0, 0],
    14: [0, 0],
    12: [0, 0],
    13: [0, 0],
  },
  OFFSET_TIME: { 2: [1, 1] },
  IDEMPOTENT_PRODUCER: { 22: [0, 0] },
};

function readRanges(count: number, response: Decoder, readEntryTags = false): Ranges {
  const ranges: Ranges = {};
  for (let i = 0; i < count; i++) {
    const apiKey = response.readInt16();
    ranges[apiKey] = [response.readInt16(), response.readInt16()];
    if (readEntryTags) expect(response.readUVarInt()).toBe(0);
  }
  return ranges;
}

describe('kafka-dev-broker ApiVersions on the wire', () => {
  const resources = new TestResources();
  let broker: KafkaDevBroker;
  let client: RawKafkaClient;

  beforeEach(async () => {
    broker = await resources.broker();
    client = await RawKafkaClient.connect(broker.port);
  });
  afterEach(async () => {
    client.close();
    await resources.closeAll();
  });

  it('answers v0 with every API and the range it serves, and nothing after the array', async () => {
    const response = await client.request(API_VERSIONS, 0);
    expect(response.readInt16()).toBe(0);
    expect(readRanges(response.readInt32(), response)).toEqual(SERVED);
    expect(bytesLeft(response)).toBe(0);
  });

  it.each([1, 2])('answers v%i with the same ranges followed by the throttle time', async (version) => {
    const response = await client.request(API_VERSIONS, version);
    expect(response.readInt16()).toBe(0);
    expect(readRanges(response.readInt32(), response)).toEqual(SERVED);
    expect(response.readInt32()).toBe(0);
    expect(bytesLeft(response)).toBe(0);
  });

  it('answers v3 (flexible request, tagged fields in header and body) with a compact array and tags', async () => {
    const response = await client.request(
      API_VERSIONS,
      3,
      (body) =>
        body
          .writeUVarIntString('librdkafka')
          .writeUVarIntString('2.0.2')
          // one unknown tagged field (tag 7, 2 bytes), which the broker must skip
          .writeUVarInt(1)
          .writeUVarInt(7)
          .writeUVarInt(2)
          .writeBuffer(Buffer.from([0xab, 0xcd])),
      { flexibleHeader: true },
    );
    expect(response.readInt16()).toBe(0);
    const count = response.readUVarInt() - 1;
    expect(readRanges(count, response, true)).toEqual(SERVED);
    expect(response.readInt32()).toBe(0); // throttle_time_ms
    expect(response.readUVarInt()).toBe(0); // no tagged fields
    expect(bytesLeft(response)).toBe(0);
  });

  it.each([
    [4, true, Buffer.alloc(0)],
    [99, false, Buffer.alloc(0)],
    // a body of a layout the broker cannot know (read as tagged fields it would overrun the frame)
    [5, false, Buffer.from([0x03, 0x01, 0x7f])],
  ])(
    'answers unknown v%i in v0 format with UNSUPPORTED_VERSION and its own range, then serves the retry',
    async (version, flexibleHeader, unknownBody) => {
      const refusal = await client.request(API_VERSIONS, version, (body) => body.writeBuffer(unknownBody), {
        flexibleHeader,
      });
      expect(refusal.readInt16()).toBe(UNSUPPORTED_VERSION);
      expect(readRanges(refusal.readInt32(), refusal)).toEqual({ [API_VERSIONS]: SERVED[API_VERSIONS] });
      expect(bytesLeft(refusal)).toBe(0);

      // The client retries on the same connection with the newest version both know.
      const retry = await client.request(API_VERSIONS, 2);
      expect(retry.readInt16()).toBe(0);
      expect(readRanges(retry.readInt32(), retry)).toEqual(SERVED);
    },
  );

  it('closes the connection on a version below the oldest it serves, as Kafka does, and says why', async () => {
    const warnings: unknown[] = [];
    const logging = {
      debug: ignore,
      info: ignore,
      error: ignore,
      warn: (...args: unknown[]) => warnings.push(args),
    };
    const quietBroker = await resources.broker({ logger: logging });
    const produceClient = await RawKafkaClient.connect(quietBroker.port);
    const closed = produceClient.whenClosed();
    await expect(produceClient.request(0, 2, (body) => body.writeInt16(1))).rejects.toThrow('closed');
    await closed;
    expect(JSON.stringify(warnings)).toContain('API key 0 version 2 is not supported');
  });

  it.each(Object.entries(LIBRDKAFKA_FEATURES))(
    'advertises ranges that turn on librdkafka feature %s',
    async (_feature, depends) => {
      const response = await client.request(API_VERSIONS, 0);
      response.readInt16();
      const advertised = readRanges(response.readInt32(), response);
      for (const [apiKey, [min, max]] of Object.entries(depends)) {
        const [servedMin, servedMax] = advertised[Number(apiKey)] ?? [-1, -2];
        expect({ apiKey, overlaps: servedMin <= max && min <= servedMax }).toEqual({
          apiKey,
          overlaps: true,
        });
      }
    },
  );
});
