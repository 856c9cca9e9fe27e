import { KafkaDevBrokerLogger } from '../logger';
import { ErrorCode } from '../protocol/error-codes';
import { ConsumerGroup } from './consumer-group';

/** The broker is the coordinator of every group (single node); this is the registry of groups. */
export class GroupCoordinator {
  private readonly groups = new Map<string, ConsumerGroup>();

  constructor(private readonly logger: KafkaDevBrokerLogger) {}

  group(groupId: string): ConsumerGroup | undefined {
    return this.groups.get(groupId);
  }

  getOrCreate(groupId: string): ConsumerGroup {
    let group = this.groups.get(groupId);
    if (!group) {
      group = new ConsumerGroup(groupId, this.logger);
      this.groups.set(groupId, group);
    }
    return group;
  }

  list(): ConsumerGroup[] {
    return [...this.groups.values()];
  }

  delete(groupId: string): ErrorCode {
    const group = this.groups.get(groupId);
    if (!group) return ErrorCode.GroupIdNotFound;
    if (group.state !== 'Empty') return ErrorCode.NonEmptyGroup;
    this.groups.delete(groupId);
    return ErrorCode.None;
  }

  /** Like Kafka, deleting a topic deletes the offsets committed for it. */
  forgetTopic(topic: string): void {
    for (const group of this.groups.values()) group.forgetTopic(topic);
  }

  /** Forgets all members (and their timers) but keeps groups and committed offsets. */
  dropAllMembers(): void {
    for (const group of this.groups.values()) group.dropMembers();
  }

  clear(): void {
    this.dropAllMembers();
    this.groups.clear();
  }
}
