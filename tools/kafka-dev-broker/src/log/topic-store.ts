import { ErrorCode } from '../protocol/error-codes';
import { RecordBatchView } from '../protocol/record-batch';
import { AppendResult, PartitionLog } from './partition-log';

const MAX_TOPIC_NAME_LENGTH = 249;
const LEGAL_TOPIC_NAME = /^[a-zA-Z0-9._-]+$/;

interface AppendWaiter {
  isSatisfied(): boolean;
  wake(): void;
}

/** Same rule as Kafka's Topic.validate; returns why the name is invalid, or undefined. */
export function invalidTopicNameReason(name: string): string | undefined {
  if (name.length === 0 || name === '.' || name === '..') return `"${name}" is not a valid topic name`;
  if (name.length > MAX_TOPIC_NAME_LENGTH)
    return `topic name is longer than ${MAX_TOPIC_NAME_LENGTH} characters`;
  if (!LEGAL_TOPIC_NAME.test(name)) return `topic name "${name}" may only contain [a-zA-Z0-9._-]`;
  return undefined;
}

/** All topics and their partition logs, plus the producer-id counter for idempotent producers. */
export class TopicStore {
  private readonly topics = new Map<string, PartitionLog[]>();
  private readonly waiters = new Set<AppendWaiter>();
  private nextProducerId = 1;

  constructor(readonly defaultPartitions: number) {}

  names(): string[] {
    return [...this.topics.keys()].sort();
  }

  partitions(topic: string): readonly PartitionLog[] | undefined {
    return this.topics.get(topic);
  }

  partition(topic: string, partition: number): PartitionLog | undefined {
    return this.topics.get(topic)?.[partition];
  }

  create(topic: string, partitionCount = this.defaultPartitions): void {
    if (this.topics.has(topic)) return;
    this.topics.set(
      topic,
      Array.from({ length: partitionCount }, () => new PartitionLog()),
    );
  }

  delete(topic: string): boolean {
    return this.topics.delete(topic);
  }

  allocateProducerId(): number {
    return this.nextProducerId++;
  }

  append(topic: string, partition: number, batches: readonly RecordBatchView[]): AppendResult {
    const log = this.partition(topic, partition);
    if (!log) return { errorCode: ErrorCode.UnknownTopicOrPartition, baseOffset: -1 };
    const result = log.append(batches);
    if (result.errorCode === ErrorCode.None) this.wakeWaiters();
    return result;
  }

  /**
   * Resolves once `isSatisfied` holds after an append, or after timeoutMs: the long poll behind
   * Fetch's max wait time / min bytes.
   */
  waitForAppend(timeoutMs: number, isSatisfied: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const waiter: AppendWaiter = {
        isSatisfied,
        wake: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Ends every pending long poll now (used on stop, so no timer outlives the broker). */
  releaseWaiters(): void {
    for (const waiter of [...this.waiters]) waiter.wake();
  }

  clear(): void {
    this.releaseWaiters();
    this.topics.clear();
    // nextProducerId keeps counting: a producer that outlived the reset must not share an id with a new one.
  }

  private wakeWaiters(): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.isSatisfied()) waiter.wake();
    }
  }
}
