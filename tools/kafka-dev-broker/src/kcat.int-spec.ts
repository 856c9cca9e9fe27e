import { KafkaDevBroker } from './kafka-dev-broker';
import { findKcat, KCAT_MISSING, KcatResult, runKcat } from './testing/kcat';
import { TestResources } from './testing/kafkajs-test-kit';

const kcat = findKcat();
if (!kcat) process.stderr.write(`\n${KCAT_MISSING}\n\n`);

interface KcatMetadata {
  controllerid: number;
  brokers: { id: number; name: string }[];
  topics: { topic: string; partitions: { partition: number; leader: number }[] }[];
}

/**
 * The dev broker as operators look into Kafka: kcat (librdkafka, not kafkajs) lists metadata,
 * produces, consumes from chosen offsets and consumes in a balanced group against a broker
 * started here. librdkafka negotiates its versions from ApiVersions v3 and refuses a broker whose
 * ranges miss its required features, so this is the end-to-end check of version negotiation.
 * Skipped, saying so, where kcat is not installed.
 */
(kcat ? describe : describe.skip)('kafka-dev-broker with kcat (librdkafka)', () => {
  const resources = new TestResources();
  let broker: KafkaDevBroker;

  /** kcat against the test's broker; fails the test, with kcat's output, unless kcat exits 0. */
  async function run(args: string[], input?: string): Promise<KcatResult> {
    const result = await runKcat(kcat ?? 'kcat', ['-b', broker.brokers[0], ...args], { input });
    expect({ args, code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({
      args,
      code: 0,
      stderr: '',
    });
    return result;
  }

  const lines = (output: string) => output.split('\n').filter((line) => line !== '');

  beforeEach(async () => {
    broker = await resources.broker({ defaultPartitions: 2 });
  });
  afterEach(() => resources.closeAll());

  it('-L lists the broker as controller and every topic with its partitions and leader', async () => {
    await run(['-P', '-t', 'listed', '-p', '1'], 'one\n');
    const metadata = JSON.parse((await run(['-L', '-J'])).stdout) as KcatMetadata;

    expect(metadata.controllerid).toBe(1);
    expect(metadata.brokers).toEqual([{ id: 1, name: broker.brokers[0] }]);
    expect(metadata.topics).toEqual([
      expect.objectContaining({
        topic: 'listed',
        partitions: [0, 1].map((partition) => expect.objectContaining({ partition, leader: 1 })),
      }),
    ]);
  });

  it('-P produces keys, values and headers that -C reads back, from the beginning, an offset or the end', async () => {
    await run(
      ['-P', '-t', 'kcat-topic', '-p', '0', '-K', ':', '-H', 'trace=abc'],
      'k1:first\nk2:second\nk3:third\n',
    );
    const format = ['-f', '%k=%s@%o %h\\n'];

    const all = await run(['-C', '-t', 'kcat-topic', '-p', '0', '-o', 'beginning', '-e', ...format]);
    expect(lines(all.stdout)).toEqual([
      'k1=first@0 trace=abc',
      'k2=second@1 trace=abc',
      'k3=third@2 trace=abc',
    ]);

    const fromOffset = await run(['-C', '-t', 'kcat-topic', '-p', '0', '-o', '1', '-e', ...format]);
    expect(lines(fromOffset.stdout)).toEqual(['k2=second@1 trace=abc', 'k3=third@2 trace=abc']);

    const lastOne = await run(['-C', '-t', 'kcat-topic', '-p', '0', '-o', '-1', '-e', ...format]);
    expect(lines(lastOne.stdout)).toEqual(['k3=third@2 trace=abc']);

    const count = await run(['-C', '-t', 'kcat-topic', '-p', '0', '-o', '0', '-c', '2', ...format]);
    expect(lines(count.stdout)).toEqual(['k1=first@0 trace=abc', 'k2=second@1 trace=abc']);
  });

  it('-G joins a balanced group, reads every partition, commits, and a rejoin resumes after the commit', async () => {
    await run(['-P', '-t', 'grouped', '-p', '0'], 'a\nb\n');
    await run(['-P', '-t', 'grouped', '-p', '1'], 'c\n');
    const group = [
      '-G',
      'kcat-readers',
      '-X',
      'auto.offset.reset=earliest',
      '-e',
      '-f',
      '%p:%s\\n',
      'grouped',
    ];

    const first = await run(group);
    expect(lines(first.stdout).sort()).toEqual(['0:a', '0:b', '1:c']);
    expect(first.stderr).toContain('assigned: grouped [0], grouped [1]');

    await run(['-P', '-t', 'grouped', '-p', '1'], 'd\n');
    const second = await run(group);
    expect(lines(second.stdout)).toEqual(['1:d']);
  });
});
