import { JoinGroupResult } from '../group/consumer-group';
import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/**
 * JoinGroup v3. Not v4+: those let the broker demand a second round trip for new members
 * (MEMBER_ID_REQUIRED), which buys nothing here. The response is held until the rebalance completes.
 */
export const joinGroupHandler: ApiHandler = {
  apiKey: ApiKey.JoinGroup,
  minVersion: 3,
  maxVersion: 3,
  async handle(request, { broker, clientId, clientHost }) {
    const groupId = request.string();
    const sessionTimeoutMs = request.int32();
    const rebalanceTimeoutMs = request.int32();
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

    return new ResponseWriter()
      .int32(THROTTLE_TIME_MS)
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
