import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Max, Min, MinLength, validateSync } from 'class-validator';
import { readFileSync } from 'node:fs';
import { DEV_AUDIENCE, DEV_ISSUER, type AuthSettings } from '@erp/auth';
import { TRACES_SAMPLERS } from '@erp/observability';
import type { RequestLogging } from './request-log';

/** Raised when the environment is wrong; the message names every bad variable. */
export class ConfigError extends Error {}

/**
 * Reads and validates configuration from the environment into a class. A wrong or missing
 * variable stops the process with a message that names it, rather than failing later.
 */
export function loadConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  // An empty variable (`PORT=`) means "not set": it takes the default instead of failing.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = plainToInstance(cls, present, { enableImplicitConversion: false, exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => `  ${e.property}: ${Object.values(e.constraints ?? {}).join('; ')}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return config;
}

/**
 * `@Transform(toInt)` for a numeric environment variable: unset or empty is undefined (the default
 * applies), anything else goes through Number(), which keeps fractions and gives NaN for words, so
 * the @IsInt / @Min beside it decides what is accepted and names the variable when it is not.
 */
export const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toNumber = toInt;

/** Variables every HTTP service shares. Each app extends it with its own. */
export class ServiceConfig {
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /**
   * Port of a listener serving only `GET /metrics`; when set, the service port no longer answers
   * `/metrics` (the manifests set 9464, so the gateway's public port never serves it). Unset (`npm
   * start`, tests): `/metrics` on PORT.
   */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  METRICS_PORT?: number;

  /** postgres://user:password@host:port/database of this service's own database. */
  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_protocol: true })
  DATABASE_URL!: string;

  /**
   * A direct server session (not a transaction-mode pooler) for LISTEN wake-ups, when DATABASE_URL
   * is a pooler. Unset: DATABASE_URL. Nothing else needs a session (docs/platform-teams.md).
   */
  @IsOptional()
  @IsUrl({ protocols: ['postgres', 'postgresql'], require_tld: false, require_protocol: true })
  DATABASE_SESSION_URL?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  /**
   * `true`: the list statements run as named prepared statements, parsed and planned once per
   * connection. Set `false` behind a transaction-mode pooler that does not keep prepared
   * statements (PgBouncer before 1.21, or `max_prepared_statements = 0`): docs/platform-teams.md.
   */
  @IsIn(['true', 'false'])
  DATABASE_PREPARED_STATEMENTS = 'true';

  /**
   * How long a service keeps the answer of a write sent with an Idempotency-Key, so that its retry
   * gets that answer again (docs/api-conventions.md "Safe retries"): at least the 24 hours the API
   * promises; older answers are removed in the background, in small batches no write waits for.
   */
  @Transform(toInt)
  @IsInt()
  @Min(24)
  @Max(24 * 30)
  IDEMPOTENCY_KEY_RETENTION_HOURS = 24;

  @IsString()
  @MinLength(1)
  AUTH_ISSUER = DEV_ISSUER;

  @IsString()
  @MinLength(1)
  AUTH_AUDIENCE = DEV_AUDIENCE;

  /** JWKS URL of the identity provider (production). */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  AUTH_JWKS_URL?: string;

  /** PEM public key (embedded default); or AUTH_PUBLIC_KEY_FILE with a path to one. */
  @IsOptional()
  @IsString()
  AUTH_PUBLIC_KEY?: string;

  @IsOptional()
  @IsString()
  AUTH_PUBLIC_KEY_FILE?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @IsOptional()
  @IsIn(['true', 'false'])
  LOG_PRETTY?: string;

  /**
   * `completed`: one line per request at info when it is answered (request and response);
   * `all`: Fastify's two lines ("incoming request", "request completed"); `off`: none (errors are
   * still logged). See request-log.ts for what each costs.
   */
  @IsIn(['completed', 'all', 'off'])
  LOG_REQUESTS: RequestLogging = 'completed';

  /**
   * Bytes of log lines gathered before one write to stdout (0: each line at once). Lines wait at
   * most a second, error lines not at all, and are written on exit; a kill -9 loses what is
   * gathered (createLogger's `bufferBytes`).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1024 * 1024)
  LOG_BUFFER_BYTES = 4096;

  /** Largest JSON body accepted, in bytes (413 above it). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  BODY_LIMIT_BYTES = 1024 * 1024;

  /**
   * Slow-client limits (slow-loris): the whole header block must arrive within HEADERS_TIMEOUT_MS,
   * the whole request (headers and body) within REQUEST_TIMEOUT_MS (0 = no limit; keep it above the
   * time a large upload legitimately takes), and a socket with no traffic at all for
   * IDLE_SOCKET_TIMEOUT_MS is closed. A cut-off client gets 408 or a closed connection.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  HEADERS_TIMEOUT_MS = 20_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  REQUEST_TIMEOUT_MS = 300_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  IDLE_SOCKET_TIMEOUT_MS = 120_000;

  /**
   * How long an idle keep-alive connection stays open, announced as `Keep-Alive: timeout=<s>` so
   * that clients drop it first. Short for the services (their clients, the gateway and each other,
   * read the announcement, and a draining replica waits for them); the gateway keeps 72 s, above
   * the idle timeout of the load balancers in front of it (60 s on AWS ALB and ingress-nginx).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  KEEP_ALIVE_TIMEOUT_MS = 5_000;

  /**
   * On SIGTERM the service turns not ready (readiness 503) and keeps serving, every answer closing
   * its connection, until no request but probes arrived for SHUTDOWN_QUIET_MS and no idle
   * connection is left (at most KEEP_ALIVE_TIMEOUT_MS longer, or half of SHUTDOWN_TIMEOUT_MS);
   * then it stops accepting, lets in-flight requests finish and runs its shutdown hooks. Past
   * SHUTDOWN_TIMEOUT_MS in all it exits 1: keep it below Kubernetes' grace period minus the
   * preStop sleep. (libs/bootstrap `closeGracefully`, docs/platform-teams.md "Rollouts".)
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_QUIET_MS = 1_000;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  SHUTDOWN_TIMEOUT_MS = 20_000;

  /**
   * OpenTelemetry tracing (OTLP/HTTP, JSON) is on when either endpoint is set: the base URL
   * (`/v1/traces` is appended) or the full traces URL. Off by default, and then costs nothing.
   */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /** The exporter speaks OTLP/HTTP with JSON only; a collector expecting protobuf or gRPC is refused here. */
  @IsOptional()
  @IsIn(['http/json'])
  OTEL_EXPORTER_OTLP_PROTOCOL?: string;

  @IsOptional()
  @IsIn(['http/json'])
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string;

  /** `service.name` of the spans; default the app's name (e.g. `sales-orders-v3`). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  OTEL_SERVICE_NAME?: string;

  /** Default `parentbased_always_on`: a caller's sampling decision is kept, new traces are all sampled. */
  @IsOptional()
  @IsIn([...TRACES_SAMPLERS])
  OTEL_TRACES_SAMPLER?: string;

  /** The ratio of the `*traceidratio` samplers, 0..1 (default 1). */
  @Transform(toNumber)
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  OTEL_TRACES_SAMPLER_ARG?: number;

  /** Batch export delay in ms (SDK default 5000); read by the SDK, validated here. */
  @Transform(toInt)
  @IsOptional()
  @IsInt()
  @Min(0)
  OTEL_BSP_SCHEDULE_DELAY?: number;
}

/** Auth settings from the shared variables; fails clearly when no key source is configured. */
export function authSettingsFrom(config: ServiceConfig): AuthSettings {
  const publicKeyPem = config.AUTH_PUBLIC_KEY_FILE
    ? readKeyFile(config.AUTH_PUBLIC_KEY_FILE)
    : config.AUTH_PUBLIC_KEY?.replace(/\\n/g, '\n');
  if (!config.AUTH_JWKS_URL && !publicKeyPem) {
    throw new ConfigError('Invalid configuration:\n  AUTH_JWKS_URL: set it, or AUTH_PUBLIC_KEY / AUTH_PUBLIC_KEY_FILE');
  }
  return {
    issuer: config.AUTH_ISSUER,
    audience: config.AUTH_AUDIENCE,
    jwksUrl: config.AUTH_JWKS_URL,
    publicKeyPem: config.AUTH_JWKS_URL ? undefined : publicKeyPem,
  };
}

function readKeyFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const reason = (err as { code?: unknown }).code ?? 'unreadable';
    throw new ConfigError(`Invalid configuration:\n  AUTH_PUBLIC_KEY_FILE: cannot read ${path} (${String(reason)})`);
  }
}
