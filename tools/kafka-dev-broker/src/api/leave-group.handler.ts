import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

/**
 * LeaveGroup v0-2 (v1 adds the throttle time; one member per request, v3 batches members). The
 * others rebalance at once.
 */
export const leaveGroupHandler: ApiHandler = {
  apiKey: ApiKey.LeaveGroup,
  minVersion: 0,
  maxVersion: 2,
  async handle(request, { broker, apiVersion }) {
    const groupId = request.string();
    const memberId = request.string();
    const errorCode = broker.groups.group(groupId)?.leave(memberId) ?? ErrorCode.UnknownMemberId;
    return responseWithThrottle(apiVersion, 1).int16(errorCode);
  },
};
