// What the specs expect the broker to serve, written down apart from the handlers so that a
// change of a range is a change of this contract too (README's Protocol table says the same).
import { ApiKey } from '../protocol/api-keys';

export type VersionRanges = Partial<Record<ApiKey, [min: number, max: number]>>;

/** Each range starts at the oldest version the broker implements (README: why some start above 0). */
export const SERVED_VERSIONS: VersionRanges = {
  [ApiKey.Produce]: [3, 7], // v3 is the first with record batches
  [ApiKey.Fetch]: [4, 4],
  [ApiKey.ListOffsets]: [1, 3],
  [ApiKey.Metadata]: [0, 6],
  [ApiKey.OffsetCommit]: [1, 5],
  [ApiKey.OffsetFetch]: [1, 4],
  [ApiKey.FindCoordinator]: [0, 2],
  [ApiKey.JoinGroup]: [0, 3],
  [ApiKey.Heartbeat]: [0, 2],
  [ApiKey.LeaveGroup]: [0, 2],
  [ApiKey.SyncGroup]: [0, 2],
  [ApiKey.DescribeGroups]: [0, 2],
  [ApiKey.ListGroups]: [0, 2],
  [ApiKey.ApiVersions]: [0, 3],
  [ApiKey.CreateTopics]: [0, 3],
  [ApiKey.DeleteTopics]: [0, 1],
  [ApiKey.InitProducerId]: [0, 1],
  [ApiKey.DeleteGroups]: [0, 1],
};

/** Version `run` of `api`, clamped to its served range: runs 0..max of all ranges pass every version. */
export function versionForRun(api: ApiKey, run: number): number {
  const [min, max] = SERVED_VERSIONS[api] ?? [0, 0];
  return Math.min(Math.max(run, min), max);
}
