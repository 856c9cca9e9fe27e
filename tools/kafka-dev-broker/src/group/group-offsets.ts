import type { CommittedOffset, OffsetToCommit } from './group-protocol.types';

/** A group's committed offsets, by topic and partition; they survive membership changes. */
export class GroupOffsets {
  private readonly offsets = new Map<string, Map<number, CommittedOffset>>();

  store(offsets: readonly OffsetToCommit[]): void {
    for (const { topic, partition, offset, metadata } of offsets) {
      let partitions = this.offsets.get(topic);
      if (!partitions) {
        partitions = new Map();
        this.offsets.set(topic, partitions);
      }
      partitions.set(partition, { offset, metadata });
    }
  }

  get(topic: string, partition: number): CommittedOffset | undefined {
    return this.offsets.get(topic)?.get(partition);
  }

  partitions(): { topic: string; partitions: number[] }[] {
    return [...this.offsets].map(([topic, partitions]) => ({ topic, partitions: [...partitions.keys()] }));
  }

  forgetTopic(topic: string): void {
    this.offsets.delete(topic);
  }
}
