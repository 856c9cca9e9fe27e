import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

/** ListGroups v0-2 (v1 adds the throttle time). */
export const listGroupsHandler: ApiHandler = {
  apiKey: ApiKey.ListGroups,
  minVersion: 0,
  maxVersion: 2,
  async handle(_request, { broker, apiVersion }) {
    return responseWithThrottle(apiVersion, 1)
      .int16(ErrorCode.None)
      .array(broker.groups.list(), (writer, group) =>
        writer.string(group.groupId).string(group.protocolType ?? ''),
      );
  },
};
