import { randomUUID } from 'node:crypto';
import { KafkaDevBrokerLogger } from '../logger';
import { ErrorCode } from '../protocol/error-codes';
import { acceptsProtocols, EMPTY, joinError, type Member, selectProtocol, syncError } from './group-member';
import { GroupOffsets } from './group-offsets';
import type {
  GroupMemberDescription,
  GroupState,
  JoinGroupRequest,
  JoinGroupResult,
  CommittedOffset,
  OffsetToCommit,
  SyncGroupResult,
} from './group-protocol.types';

/**
 * One consumer group and its rebalance protocol, following Kafka's GroupCoordinator:
 * - a member joining (or rejoining), leaving, or missing its session timeout moves the group to
 *   PreparingRebalance; members learn it from Heartbeat (REBALANCE_IN_PROGRESS) and rejoin;
 * - the join phase completes when every member has rejoined, or at the rebalance timeout, which
 *   drops members that did not; the generation then increases and the leader gets the members;
 * - the leader's SyncGroup carries everyone's assignment and makes the group Stable.
 * Committed offsets live here too (GroupOffsets); they survive membership changes. Members and
 * the choice of assignor: group-member.ts.
 */
export class ConsumerGroup {
  state: GroupState = 'Empty';
  generationId = 0;
  protocolType: string | null = null;
  protocolName: string | null = null;
  leaderId: string | null = null;
  private readonly members = new Map<string, Member>();
  private readonly offsets = new GroupOffsets();
  private rebalanceTimer?: NodeJS.Timeout;

  constructor(
    readonly groupId: string,
    private readonly logger: KafkaDevBrokerLogger,
  ) {}

  join(request: JoinGroupRequest): Promise<JoinGroupResult> {
    const others = [...this.members.values()].filter(({ id }) => id !== request.memberId);
    if (!acceptsProtocols(others, request.protocolType, request.protocols)) {
      return Promise.resolve(joinError(ErrorCode.InconsistentGroupProtocol, request.memberId));
    }
    let member: Member;
    if (request.memberId === '') {
      member = {
        id: `${request.clientId || 'member'}-${randomUUID()}`,
        clientId: request.clientId,
        clientHost: request.clientHost,
        sessionTimeoutMs: request.sessionTimeoutMs,
        rebalanceTimeoutMs: request.rebalanceTimeoutMs,
        protocolType: request.protocolType,
        protocols: request.protocols,
        assignment: EMPTY,
      };
      this.members.set(member.id, member);
    } else {
      const known = this.members.get(request.memberId);
      if (!known) return Promise.resolve(joinError(ErrorCode.UnknownMemberId, request.memberId));
      member = known;
      member.sessionTimeoutMs = request.sessionTimeoutMs;
      member.rebalanceTimeoutMs = request.rebalanceTimeoutMs;
      member.protocolType = request.protocolType;
      member.protocols = request.protocols;
      // A second JoinGroup from the same member supersedes the first (e.g. a client-side retry).
      member.pendingJoin?.(joinError(ErrorCode.RebalanceInProgress, member.id));
    }
    this.protocolType ??= request.protocolType;

    const result = new Promise<JoinGroupResult>((resolve) => {
      member.pendingJoin = resolve;
    });
    this.touch(member);
    this.prepareRebalance(`member ${member.id} joined`);
    this.completeJoinIfEveryoneRejoined();
    return result;
  }

  sync(
    generationId: number,
    memberId: string,
    assignments: ReadonlyMap<string, Buffer>,
  ): Promise<SyncGroupResult> {
    const member = this.members.get(memberId);
    if (!member) return Promise.resolve(syncError(ErrorCode.UnknownMemberId));
    if (generationId !== this.generationId) return Promise.resolve(syncError(ErrorCode.IllegalGeneration));
    if (this.state === 'PreparingRebalance') return Promise.resolve(syncError(ErrorCode.RebalanceInProgress));
    this.touch(member);
    if (this.state === 'Stable')
      return Promise.resolve({ errorCode: ErrorCode.None, assignment: member.assignment });

    // CompletingRebalance: park until the leader's SyncGroup (possibly this one) brings the assignment.
    const result = new Promise<SyncGroupResult>((resolve) => {
      member.pendingSync = resolve;
    });
    if (memberId === this.leaderId) {
      for (const each of this.members.values()) each.assignment = assignments.get(each.id) ?? EMPTY;
      this.state = 'Stable';
      this.logger.debug('group stable', { groupId: this.groupId, generationId: this.generationId });
      for (const each of this.members.values()) {
        each.pendingSync?.({ errorCode: ErrorCode.None, assignment: each.assignment });
        each.pendingSync = undefined;
      }
    }
    return result;
  }

  heartbeat(generationId: number, memberId: string): ErrorCode {
    const member = this.members.get(memberId);
    if (!member) return ErrorCode.UnknownMemberId;
    if (generationId !== this.generationId) return ErrorCode.IllegalGeneration;
    this.touch(member);
    return this.state === 'PreparingRebalance' ? ErrorCode.RebalanceInProgress : ErrorCode.None;
  }

  leave(memberId: string): ErrorCode {
    const member = this.members.get(memberId);
    if (!member) return ErrorCode.UnknownMemberId;
    this.removeMember(member, 'left the group');
    return ErrorCode.None;
  }

  /**
   * Commits are accepted from members of the current generation, including while the group is
   * PreparingRebalance: that is when consumers commit what they processed before rejoining, which
   * is what keeps a rebalance from redelivering handled messages. Generation -1 with no member id
   * is a commit from outside the group (admin), allowed only while the group has no members.
   */
  commit(generationId: number, memberId: string, offsets: readonly OffsetToCommit[]): ErrorCode {
    const errorCode = this.checkCommitter(generationId, memberId);
    if (errorCode !== ErrorCode.None) return errorCode;
    this.offsets.store(offsets);
    return ErrorCode.None;
  }

  committedOffset(topic: string, partition: number): CommittedOffset | undefined {
    return this.offsets.get(topic, partition);
  }

  committedPartitions(): { topic: string; partitions: number[] }[] {
    return this.offsets.partitions();
  }

  forgetTopic(topic: string): void {
    this.offsets.forgetTopic(topic);
  }

  describeMembers(): GroupMemberDescription[] {
    return [...this.members.values()].map((member) => ({
      memberId: member.id,
      clientId: member.clientId,
      clientHost: member.clientHost,
      metadata: member.protocols.find(({ name }) => name === this.protocolName)?.metadata ?? EMPTY,
      assignment: member.assignment,
    }));
  }

  /** Drops every member without a rebalance (the broker is stopping and their sockets are gone). */
  dropMembers(): void {
    clearTimeout(this.rebalanceTimer);
    this.rebalanceTimer = undefined;
    for (const member of [...this.members.values()]) this.deleteMember(member);
    this.state = 'Empty';
    this.leaderId = null;
    this.protocolName = null;
  }

  private checkCommitter(generationId: number, memberId: string): ErrorCode {
    if (generationId < 0 && memberId === '') {
      return this.members.size === 0 ? ErrorCode.None : ErrorCode.UnknownMemberId;
    }
    const member = this.members.get(memberId);
    if (!member) return ErrorCode.UnknownMemberId;
    if (generationId !== this.generationId) return ErrorCode.IllegalGeneration;
    // Between the join and the leader's SyncGroup, nobody knows the new assignment yet.
    if (this.state === 'CompletingRebalance') return ErrorCode.RebalanceInProgress;
    this.touch(member);
    return ErrorCode.None;
  }

  private prepareRebalance(reason: string): void {
    if (this.state === 'PreparingRebalance') return;
    if (this.state === 'CompletingRebalance') {
      for (const member of this.members.values()) {
        member.pendingSync?.(syncError(ErrorCode.RebalanceInProgress));
        member.pendingSync = undefined;
      }
    }
    this.state = 'PreparingRebalance';
    this.logger.debug('preparing rebalance', { groupId: this.groupId, reason });
    const timeoutMs = Math.max(
      0,
      ...[...this.members.values()].map(({ rebalanceTimeoutMs }) => rebalanceTimeoutMs),
    );
    this.rebalanceTimer = setTimeout(() => this.onRebalanceTimeout(), timeoutMs);
  }

  private onRebalanceTimeout(): void {
    this.rebalanceTimer = undefined;
    for (const member of [...this.members.values()]) {
      if (!member.pendingJoin) {
        this.logger.info('removing member that did not rejoin in time', {
          groupId: this.groupId,
          memberId: member.id,
        });
        this.deleteMember(member);
      }
    }
    this.completeJoin();
  }

  private completeJoinIfEveryoneRejoined(): void {
    if (this.state !== 'PreparingRebalance') return;
    if ([...this.members.values()].every((member) => member.pendingJoin)) this.completeJoin();
  }

  private completeJoin(): void {
    clearTimeout(this.rebalanceTimer);
    this.rebalanceTimer = undefined;
    this.generationId++;
    const members = [...this.members.values()];
    if (members.length === 0) {
      this.state = 'Empty';
      this.leaderId = null;
      this.protocolName = null;
      this.logger.debug('group empty', { groupId: this.groupId, generationId: this.generationId });
      return;
    }
    const protocolName = selectProtocol(members);
    this.protocolName = protocolName;
    if (this.leaderId === null || !this.members.has(this.leaderId)) this.leaderId = members[0].id;
    const leaderId = this.leaderId;
    this.state = 'CompletingRebalance';
    this.logger.info('rebalance: new generation', {
      groupId: this.groupId,
      generationId: this.generationId,
      members: members.length,
      protocolName,
    });

    const memberMetadata = members.map((member) => ({
      memberId: member.id,
      metadata: member.protocols.find(({ name }) => name === protocolName)?.metadata ?? EMPTY,
    }));
    for (const member of members) {
      member.pendingJoin?.({
        errorCode: ErrorCode.None,
        generationId: this.generationId,
        protocolName,
        leaderId,
        memberId: member.id,
        members: member.id === leaderId ? memberMetadata : [],
      });
      member.pendingJoin = undefined;
      this.touch(member);
    }
  }

  private removeMember(member: Member, reason: string): void {
    this.logger.info('member removed', { groupId: this.groupId, memberId: member.id, reason });
    this.deleteMember(member);
    this.prepareRebalance(`member ${member.id} ${reason}`);
    this.completeJoinIfEveryoneRejoined();
  }

  private deleteMember(member: Member): void {
    clearTimeout(member.sessionTimer);
    this.members.delete(member.id);
    member.pendingJoin?.(joinError(ErrorCode.UnknownMemberId, member.id));
    member.pendingSync?.(syncError(ErrorCode.UnknownMemberId));
    member.pendingJoin = undefined;
    member.pendingSync = undefined;
  }

  /** Restarts the member's session timer; any request from the member counts as a sign of life. */
  private touch(member: Member): void {
    clearTimeout(member.sessionTimer);
    member.sessionTimer = setTimeout(() => this.onSessionTimeout(member), member.sessionTimeoutMs);
  }

  private onSessionTimeout(member: Member): void {
    if (this.members.get(member.id) !== member) return;
    // A member parked in JoinGroup/SyncGroup is waiting on us, not dead.
    if (member.pendingJoin || member.pendingSync) {
      this.touch(member);
      return;
    }
    this.removeMember(member, 'session timed out');
  }
}
