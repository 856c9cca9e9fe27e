import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/** Heartbeat v2: keeps the member's session alive and tells it when it must rejoin. */
export const heartbeatHandler: ApiHandler = {
  apiKey: ApiKey.Heartbeat,
  minVersion: 2,
  maxVersion: 2,
  async handle(request, { broker }) {
    const groupId = request.string();
    const generationId = request.int32();
    const memberId = request.string();
    const errorCode =
      broker.groups.group(groupId)?.heartbeat(generationId, memberId) ?? ErrorCode.UnknownMemberId;
    return new ResponseWriter().int32(THROTTLE_TIME_MS).int16(errorCode);
  },
};
