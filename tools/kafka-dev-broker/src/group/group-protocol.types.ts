import { ErrorCode } from '../protocol/error-codes';

// The shapes of the classic group protocol's requests and answers, as ConsumerGroup takes and gives them.

/** The classic (pre-KIP-848) group states, as DescribeGroups reports them. */
export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable';

export interface GroupProtocol {
  readonly name: string;
  readonly metadata: Buffer;
}

export interface JoinGroupRequest {
  readonly memberId: string;
  readonly clientId: string;
  readonly clientHost: string;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  readonly protocolType: string;
  readonly protocols: readonly GroupProtocol[];
}

export interface JoinGroupResult {
  readonly errorCode: ErrorCode;
  readonly generationId: number;
  readonly protocolName: string;
  readonly leaderId: string;
  readonly memberId: string;
  /** Only the leader gets the members (with their subscription metadata); it computes the assignment. */
  readonly members: readonly { memberId: string; metadata: Buffer }[];
}

export interface SyncGroupResult {
  readonly errorCode: ErrorCode;
  readonly assignment: Buffer;
}

export interface CommittedOffset {
  readonly offset: number;
  readonly metadata: string | null;
}

export interface OffsetToCommit extends CommittedOffset {
  readonly topic: string;
  readonly partition: number;
}

export interface GroupMemberDescription {
  readonly memberId: string;
  readonly clientId: string;
  readonly clientHost: string;
  readonly metadata: Buffer;
  readonly assignment: Buffer;
}
