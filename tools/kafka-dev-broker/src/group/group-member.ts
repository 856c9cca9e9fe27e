import { ErrorCode } from '../protocol/error-codes';
import type { GroupProtocol, JoinGroupResult, SyncGroupResult } from './group-protocol.types';

export const EMPTY = Buffer.alloc(0);

/** A member as the group keeps it: what it joined with, its assignment, and the requests it has parked. */
export interface Member {
  readonly id: string;
  readonly clientId: string;
  readonly clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocolType: string;
  protocols: readonly GroupProtocol[];
  assignment: Buffer;
  /** Set while the member's JoinGroup is parked until the rebalance completes. */
  pendingJoin?: (result: JoinGroupResult) => void;
  /** Set while a follower's SyncGroup is parked until the leader sends the assignment. */
  pendingSync?: (result: SyncGroupResult) => void;
  sessionTimer?: NodeJS.Timeout;
}

export function supports(member: Member, protocolName: string): boolean {
  return member.protocols.some(({ name }) => name === protocolName);
}

/** A member may join only if it speaks the others' protocol type and shares an assignor with every one of them. */
export function acceptsProtocols(others: readonly Member[], protocolType: string, protocols: readonly GroupProtocol[]): boolean {
  if (protocols.length === 0) return false;
  if (others.length === 0) return true;
  if (others.some((member) => member.protocolType !== protocolType)) return false;
  return protocols.some(({ name }) => others.every((member) => supports(member, name)));
}

/** Like Kafka: among the assignors every member supports, the one most members list first wins. */
export function selectProtocol(members: readonly Member[]): string {
  const candidates = members[0].protocols
    .map(({ name }) => name)
    .filter((name) => members.every((member) => supports(member, name)));
  const votes = new Map<string, number>(candidates.map((name) => [name, 0]));
  for (const member of members) {
    const preferred = member.protocols.find(({ name }) => votes.has(name));
    if (preferred) votes.set(preferred.name, (votes.get(preferred.name) ?? 0) + 1);
  }
  return [...votes].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

export function joinError(errorCode: ErrorCode, memberId: string): JoinGroupResult {
  return { errorCode, generationId: -1, protocolName: '', leaderId: '', memberId, members: [] };
}

export function syncError(errorCode: ErrorCode): SyncGroupResult {
  return { errorCode, assignment: EMPTY };
}
