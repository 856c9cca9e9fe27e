import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

/** Heartbeat v0-2 (v1 adds the throttle time): keeps the session alive, tells the member to rejoin. */
export const heartbeatHandler: ApiHandler = {
  apiKey: ApiKey.Heartbeat,
  minVersion: 0,
  maxVersion: 2,
  async handle(request, { broker, apiVersion }) {
    const groupId = request.string();
    const generationId = request.int32();
    const memberId = request.string();
    const errorCode =
      broker.groups.group(groupId)?.heartbeat(generationId, memberId) ?? ErrorCode.UnknownMemberId;
    return responseWithThrottle(apiVersion, 1).int16(errorCode);
  },
};
