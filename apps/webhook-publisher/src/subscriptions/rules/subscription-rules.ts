import { DETAIL_CODES, type FieldProblem, NotFoundError, refuseUnknownParameters, ValidationFailedError } from '@erp/errors';
import { parseV3DateTime, parseV3Paging, type V3PageRequest } from '@erp/paging';
import { eventTypeProblem, type PublisherName } from '../../publishers/publishers';
import { checkTargetUrl } from '../../targets/target-policy';
import type { ReplayDto } from '../dto/subscription.dto';
import type { SubscriptionSettings } from '../subscription-settings';

type Query = Record<string, string | string[] | undefined>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGING = { defaultPageSize: 100, maxPageSize: 100 };
const PAGING_PARAMETERS = new Set(['pageIndex', 'pageSize']);

export function subscriptionNotFound(id: string): NotFoundError {
  return new NotFoundError(`Subscription ${id.slice(0, 40)}`);
}

/** An id that cannot exist is simply not found; it never reaches SQL. */
export function subscriptionId(id: string): string {
  if (!UUID.test(id)) throw subscriptionNotFound(id);
  return id;
}

/** The page a list asks for; any parameter but the paging ones is a 400. */
export function pageRequest(query: Query): V3PageRequest {
  refuseUnknownParameters(query, PAGING_PARAMETERS);
  return parseV3Paging(query, PAGING);
}

/** Event types the publisher does not send (SALESORDER_* on the financials publisher names the right one). */
export function eventTypeProblems(publisher: PublisherName, eventTypes: string[]): FieldProblem[] {
  return eventTypes.flatMap((type, index) => {
    const message = eventTypeProblem(publisher, type);
    return message ? [{ field: `eventTypes[${index}]`, message, code: DETAIL_CODES.invalidValue }] : [];
  });
}

/** The target policy (no private, loopback or link-local hosts unless allowed), resolving the host with the settings' resolver. */
export async function urlProblems(url: string, settings: SubscriptionSettings): Promise<FieldProblem[]> {
  const problem = await checkTargetUrl(url, settings.allowPrivateTargets, settings.resolveHost);
  return problem ? [{ field: 'url', message: `url ${problem}`, code: DETAIL_CODES.invalidValue }] : [];
}

/** The replay window [since, until), until defaulting to now; every problem of it in one 400. */
export function replayWindow(dto: ReplayDto): { since: Date; until: Date } {
  const since = parseV3DateTime(dto.since);
  const until = dto.until === undefined ? new Date() : parseV3DateTime(dto.until);
  const problems: FieldProblem[] = [];
  if (!since) problems.push({ field: 'since', message: 'since must be an ISO 8601 timestamp', code: DETAIL_CODES.invalidFormat });
  if (!until) problems.push({ field: 'until', message: 'until must be an ISO 8601 timestamp', code: DETAIL_CODES.invalidFormat });
  if (since && until && since >= until) {
    problems.push({ field: 'until', message: 'until must be later than since', code: DETAIL_CODES.outOfRange });
  }
  if (problems.length > 0 || !since || !until) throw new ValidationFailedError(problems);
  return { since, until };
}
