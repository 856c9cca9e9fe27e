import { ApiKey } from '../protocol/api-keys';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, responseWithThrottle } from './handler';

/** DescribeGroups v0-2 (v1 adds the throttle time). An unknown group is described as Dead, as in Kafka. */
export const describeGroupsHandler: ApiHandler = {
  apiKey: ApiKey.DescribeGroups,
  minVersion: 0,
  maxVersion: 2,
  async handle(request, { broker, apiVersion }) {
    const groupIds = request.array((reader) => reader.string());
    return responseWithThrottle(apiVersion, 1).array(groupIds, (writer, groupId) => {
      const group = broker.groups.group(groupId);
      writer
        .int16(ErrorCode.None)
        .string(groupId)
        .string(group?.state ?? 'Dead')
        .string(group?.protocolType ?? '')
        .string(group?.protocolName ?? '')
        .array(group?.describeMembers() ?? [], (memberWriter, member) =>
          memberWriter
            .string(member.memberId)
            .string(member.clientId)
            .string(member.clientHost)
            .bytes(member.metadata)
            .bytes(member.assignment),
        );
    });
  },
};
