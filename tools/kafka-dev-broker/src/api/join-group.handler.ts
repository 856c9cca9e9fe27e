import { JoinGroupResult } from '../group/group-protocol.types';
import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

/**
 * JoinGroup v0-3: v1 adds the rebalance timeout (v0 rebalances within the session timeout), v2 the
 * throttle time; v3 is v2. Not v4+: those let the broker demand a second round trip for new members
 * (MEMBER_ID_REQUIRED), which buys nothing here. The response is held until the rebalance completes.
 */
export const joinGroupHandler: ApiHandler = {
  apiKey: ApiKey.JoinGroup,
  minVersion: 0,
  maxVersion: 3,
  async handle(request, { broker, clientId, clientHost, apiVersion }) {
    const groupId = request.string();
    const sessionTimeoutMs = request.int32();
    const rebalanceTimeoutMs = apiVersion >= 1 ? request.int32() : sessionTimeoutMs;
    const memberId = request.string();
    const protocolType = request.string();
    const protocols = request.array((reader) => ({
      name: reader.string(),
      // Copied: the request buffer is not ours to keep.
      metadata: Buffer.from(reader.bytes() ?? Buffer.alloc(0)),
    }));

    let result: JoinGroupResult;
    if (groupId === '') result = failure(ErrorCode.InvalidGroupId, memberId);
    else if (sessionTimeoutMs <= 0) result = failure(ErrorCode.InvalidSessionTimeout, memberId);
    else {
      result = await broker.groups.getOrCreate(groupId).join({
        memberId,
        clientId,
        clientHost,
        sessionTimeoutMs,
        rebalanceTimeoutMs: rebalanceTimeoutMs > 0 ? rebalanceTimeoutMs : sessionTimeoutMs,
        protocolType,
        protocols,
      });
    }

    return responseWithThrottle(apiVersion, 2)
      .int16(result.errorCode)
      .int32(result.generationId)
      .string(result.protocolName)
      .string(result.leaderId)
      .string(result.memberId)
      .array(result.members, (writer, member) => writer.string(member.memberId).bytes(member.metadata));
  },
};

function failure(errorCode: ErrorCode, memberId: string): JoinGroupResult {
  return { errorCode, generationId: -1, protocolName: '', leaderId: '', memberId, members: [] };
}
