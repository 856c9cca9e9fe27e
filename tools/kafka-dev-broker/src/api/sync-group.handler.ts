import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

/** SyncGroup v0-2 (v1 adds the throttle time; v2 is v1): the leader hands in everyone's assignment. */
export const syncGroupHandler: ApiHandler = {
  apiKey: ApiKey.SyncGroup,
  minVersion: 0,
  maxVersion: 2,
  async handle(request, { broker, apiVersion }) {
    const groupId = request.string();
    const generationId = request.int32();
    const memberId = request.string();
    const assignments = new Map(
      request.array((reader) => [reader.string(), Buffer.from(reader.bytes() ?? Buffer.alloc(0))] as const),
    );

    const group = broker.groups.group(groupId);
    const result = group
      ? await group.sync(generationId, memberId, assignments)
      : { errorCode: ErrorCode.UnknownMemberId, assignment: Buffer.alloc(0) };

    return responseWithThrottle(apiVersion, 1).int16(result.errorCode).bytes(result.assignment);
  },
};
