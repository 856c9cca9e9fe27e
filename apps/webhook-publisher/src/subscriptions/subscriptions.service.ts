import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { queryRows } from '@erp/database';
import { DETAIL_CODES, type FieldProblem, NotFoundError, ValidationFailedError } from '@erp/errors';
import { parseV3DateTime, parseV3Paging, v3NextPage, type V3PageRequest } from '@erp/paging';
import { DeliveryWorkerService } from '../delivery/delivery-worker.service';
import { generateSecret } from '../delivery/signing';
import { eventTypeProblem, type PublisherName } from '../publishers/publishers';
import { checkTargetUrl } from '../targets/target-policy';
import type { CreateSubscriptionDto, ReplayDto, UpdateSubscriptionDto } from './dto/subscription.dto';

export const SUBSCRIPTION_SETTINGS = Symbol('SUBSCRIPTION_SETTINGS');
export interface SubscriptionSettings {
  allowPrivateTargets: boolean;
  /** How long the previous secret keeps signing after a rotation. */
  secretOverlapMs: number;
  /** Host resolution for the URL check (tests replace it). */
  resolveHost?: (host: string) => Promise<string[]>;
}

/** A subscription as the API shows it (never with its secret, except once at creation). */
export interface SubscriptionView {
  id: string;
  publisher: string;
  eventTypes: string[];
  url: string;
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  /** While a rotation overlaps: when the previous secret stops signing. */
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One attempt in the delivery log. */
export interface DeliveryAttemptView {
  id: string;
  eventId: string;
  eventType: string;
  webhookId: string;
  attempt: number;
  attemptedAt: string;
  status: 'delivered' | 'failed';
  responseCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface Page<T> {
  value: T[];
  totalCount: number;
  nextPage: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGING = { defaultPageSize: 100, maxPageSize: 100 };
const PAGING_PARAMETERS = new Set(['pageIndex', 'pageSize']);
const ISO_MS = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const SUBSCRIPTION_COLUMNS = `s.id, s.publisher, s.event_types AS "eventTypes", s.url, s.description, s.enabled,
  s.disabled_reason AS "disabledReason",
  CASE WHEN s.previous_secret_expires_at > now() THEN ${ISO_MS('s.previous_secret_expires_at')} END AS "previousSecretExpiresAt",
  ${ISO_MS('s.created_at')} AS "createdAt", ${ISO_MS('s.updated_at')} AS "updatedAt"`;

/** Use cases of the subscriptions API; every statement is scoped by the company of the request. */
@Injectable()
export class SubscriptionsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(SUBSCRIPTION_SETTINGS) private readonly settings: SubscriptionSettings,
    private readonly worker: DeliveryWorkerService,
  ) {}

  async create(companyId: string, dto: CreateSubscriptionDto): Promise<SubscriptionView & { secret: string }> {
    const problems = [...this.eventTypeProblems(dto.publisher, dto.eventTypes), ...(await this.urlProblems(dto.url))];
    if (problems.length > 0) throw new ValidationFailedError(problems);
    const secret = generateSecret();
    const rows = await queryRows<SubscriptionView>(
      this.db,
      `INSERT INTO webhook_subscriptions AS s (id, company_id, publisher, event_types, url, description, secret)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING ${SUBSCRIPTION_COLUMNS}`,
      [randomUUID(), companyId, dto.publisher, dto.eventTypes, dto.url, dto.description ?? null, secret],
    );
    return { ...rows[0], secret };
  }

  async list(companyId: string, query: Record<string, string | string[] | undefined>, rawQuery: string): Promise<Page<SubscriptionView>> {
    const page = this.paging(query);
    const [rows, count] = await Promise.all([
      queryRows<SubscriptionView>(
        this.db,
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions s WHERE s.company_id = $1
         ORDER BY s.created_at, s.id LIMIT $2 OFFSET $3`,
        [companyId, page.pageSize, page.offset],
      ),
      queryRows<{ total: number }>(this.db, `SELECT count(*)::int AS total FROM webhook_subscriptions WHERE company_id = $1`, [companyId]),
    ]);
    return { value: rows, totalCount: count[0].total, nextPage: v3NextPage('/api/webhooks/subscriptions', rawQuery, page, count[0].total) };
  }

  async get(companyId: string, id: string): Promise<SubscriptionView> {
    const rows = await queryRows<SubscriptionView>(
      this.db,
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions s WHERE s.company_id = $1 AND s.id = $2`,
      [companyId, checkId(id)],
    );
    if (rows.length === 0) throw notFound(id);
    return rows[0];
  }

  async update(companyId: string, id: string, dto: UpdateSubscriptionDto): Promise<SubscriptionView> {
    const current = await this.get(companyId, id);
    const problems = [
      ...(dto.eventTypes ? this.eventTypeProblems(current.publisher as PublisherName, dto.eventTypes) : []),
      ...(dto.url !== undefined ? await this.urlProblems(dto.url) : []),
    ];
    if (problems.length > 0) throw new ValidationFailedError(problems);
    const rows = await queryRows<SubscriptionView>(
      this.db,
      `UPDATE webhook_subscriptions AS s SET
         url = COALESCE($3, s.url),
         event_types = COALESCE($4, s.event_types),
         description = CASE WHEN $5 THEN $6 ELSE s.description END,
         enabled = COALESCE($7, s.enabled),
         disabled_reason = CASE WHEN $7 IS TRUE THEN NULL ELSE s.disabled_reason END,
         failing_since = CASE WHEN $7 IS TRUE THEN NULL ELSE s.failing_since END,
         updated_at = now()
       WHERE s.company_id = $1 AND s.id = $2
       RETURNING ${SUBSCRIPTION_COLUMNS}`,
      [
        companyId,
        id,
        dto.url ?? null,
        dto.eventTypes ?? null,
        dto.description !== undefined,
        dto.description ?? null,
        dto.enabled ?? null,
      ],
    );
    if (rows.length === 0) throw notFound(id);
    if (dto.enabled) this.worker.wake();
    return rows[0];
  }

  async remove(companyId: string, id: string): Promise<void> {
    const rows = await queryRows(this.db, `DELETE FROM webhook_subscriptions WHERE company_id = $1 AND id = $2 RETURNING id`, [
      companyId,
      checkId(id),
    ]);
    if (rows.length === 0) throw notFound(id);
  }

  /** A new secret; the previous one keeps signing (second signature) for the overlap period. */
  async rotateSecret(companyId: string, id: string): Promise<{ id: string; secret: string; previousSecretExpiresAt: string }> {
    const secret = generateSecret();
    const rows = await queryRows<{ previousSecretExpiresAt: string }>(
      this.db,
      `UPDATE webhook_subscriptions AS s SET previous_secret = s.secret, secret = $3,
         previous_secret_expires_at = now() + make_interval(secs => $4::float8 / 1000), updated_at = now()
       WHERE s.company_id = $1 AND s.id = $2
       RETURNING ${ISO_MS('s.previous_secret_expires_at')} AS "previousSecretExpiresAt"`,
      [companyId, checkId(id), secret, this.settings.secretOverlapMs],
    );
    if (rows.length === 0) throw notFound(id);
    return { id, secret, previousSecretExpiresAt: rows[0].previousSecretExpiresAt };
  }

  /** The subscription's attempts, newest first. */
  async deliveries(
    companyId: string,
    id: string,
    query: Record<string, string | string[] | undefined>,
    rawQuery: string,
  ): Promise<Page<DeliveryAttemptView>> {
    await this.get(companyId, id);
    const page = this.paging(query);
    const [rows, count] = await Promise.all([
      queryRows<DeliveryAttemptView>(
        this.db,
        `SELECT a.id::text, a.event_id AS "eventId", e.type AS "eventType", a.event_id AS "webhookId", a.attempt,
           ${ISO_MS('a.attempted_at')} AS "attemptedAt", a.outcome AS status, a.response_code AS "responseCode",
           a.latency_ms AS "latencyMs", a.error
         FROM webhook_delivery_attempts a JOIN webhook_events e ON e.id = a.event_id
         WHERE a.company_id = $1 AND a.subscription_id = $2
         ORDER BY a.id DESC LIMIT $3 OFFSET $4`,
        [companyId, id, page.pageSize, page.offset],
      ),
      queryRows<{ total: number }>(
        this.db,
        `SELECT count(*)::int AS total FROM webhook_delivery_attempts WHERE company_id = $1 AND subscription_id = $2`,
        [companyId, id],
      ),
    ]);
    return {
      value: rows,
      totalCount: count[0].total,
      nextPage: v3NextPage(`/api/webhooks/subscriptions/${id}/deliveries`, rawQuery, page, count[0].total),
    };
  }

  /**
   * Queues the subscription's events of [since, until) again (by event time), in their original
   * order. Deliveries already pending are left as they are; delivered and failed ones start over.
   */
  async replay(companyId: string, id: string, dto: ReplayDto): Promise<{ queued: number; since: string; until: string }> {
    const since = parseV3DateTime(dto.since);
    const until = dto.until === undefined ? new Date() : parseV3DateTime(dto.until);
    const problems: FieldProblem[] = [];
    if (!since) problems.push({ field: 'since', message: 'since must be an ISO 8601 timestamp', code: DETAIL_CODES.invalidFormat });
    if (!until) problems.push({ field: 'until', message: 'until must be an ISO 8601 timestamp', code: DETAIL_CODES.invalidFormat });
    if (since && until && since >= until) {
      problems.push({ field: 'until', message: 'until must be later than since', code: DETAIL_CODES.outOfRange });
    }
    if (problems.length > 0 || !since || !until) throw new ValidationFailedError(problems);
    await this.get(companyId, id);
    const rows = await queryRows(
      this.db,
      `INSERT INTO webhook_deliveries (subscription_id, event_id, company_id, ordering_key, event_seq)
       SELECT s.id, e.id, e.company_id, e.ordering_key, e.seq
       FROM webhook_subscriptions s
       JOIN webhook_events e ON e.company_id = s.company_id AND e.publisher = s.publisher AND e.type = ANY (s.event_types)
       WHERE s.company_id = $1 AND s.id = $2 AND e.occurred_at >= $3 AND e.occurred_at < $4
       ORDER BY e.seq
       ON CONFLICT (subscription_id, event_id) DO UPDATE SET
         status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL, delivered_at = NULL
         WHERE webhook_deliveries.status <> 'pending'
       RETURNING id`,
      [companyId, id, since, until],
    );
    this.worker.wake();
    return { queued: rows.length, since: since.toISOString(), until: until.toISOString() };
  }

  private paging(query: Record<string, string | string[] | undefined>): V3PageRequest {
    const unknown = Object.keys(query).filter((name) => !PAGING_PARAMETERS.has(name));
    if (unknown.length > 0) {
      throw new ValidationFailedError(
        unknown.map((name) => ({ field: name, message: `unknown query parameter ${name}`, code: DETAIL_CODES.unknownProperty })),
      );
    }
    return parseV3Paging(query, PAGING);
  }

  private eventTypeProblems(publisher: PublisherName, eventTypes: string[]): FieldProblem[] {
    return eventTypes.flatMap((type, index) => {
      const message = eventTypeProblem(publisher, type);
      return message ? [{ field: `eventTypes[${index}]`, message, code: DETAIL_CODES.invalidValue }] : [];
    });
  }

  private async urlProblems(url: string): Promise<FieldProblem[]> {
    const problem = await checkTargetUrl(url, this.settings.allowPrivateTargets, this.settings.resolveHost);
    return problem ? [{ field: 'url', message: `url ${problem}`, code: DETAIL_CODES.invalidValue }] : [];
  }
}

/** An id that cannot exist is simply not found; it never reaches SQL. */
function checkId(id: string): string {
  if (!UUID.test(id)) throw notFound(id);
  return id;
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Subscription ${id.slice(0, 40)}`);
}
