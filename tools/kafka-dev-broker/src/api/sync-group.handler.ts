import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/** SyncGroup v2: the leader hands in everyone's assignment; followers wait for theirs. */
export const syncGroupHandler: ApiHandler = {
  apiKey: ApiKey.SyncGroup,
  minVersion: 2,
  maxVersion: 2,
  async handle(request, { broker }) {
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

    return new ResponseWriter().int32(THROTTLE_TIME_MS).int16(result.errorCode).bytes(result.assignment);
  },
};
