import { ApiKey } from '../protocol/api-keys';
import { ResponseWriter } from '../protocol/codec';
import { ErrorCode } from '../protocol/error-codes';
import { ApiHandler, THROTTLE_TIME_MS } from './handler';

/** DescribeGroups v2. An unknown group is described as Dead, as Kafka does. */
export const describeGroupsHandler: ApiHandler = {
  apiKey: ApiKey.DescribeGroups,
  minVersion: 2,
  maxVersion: 2,
  async handle(request, { broker }) {
    const groupIds = request.array((reader) => reader.string());
    return new ResponseWriter().int32(THROTTLE_TIME_MS).array(groupIds, (writer, groupId) => {
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
