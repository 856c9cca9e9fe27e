import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { type InternalApiAuthSettings, MIN_SERVICE_SECRET_LENGTH } from '@erp/auth';
import { toInt } from '@erp/bootstrap';
import { KafkaServiceConfig } from '@erp/messaging';

/**
 * The variables of a service that publishes or consumes events (`KafkaServiceConfig`) and serves or
 * calls an internal API (docs/cross-service-reads.md): its config class extends this one. Only those
 * services declare them, so only they receive the secret (the gateway never does).
 */
export class InternalApiServiceConfig extends KafkaServiceConfig {
  /** Signs and checks service-to-service calls; the same value in every service of a deployment. */
  @IsString()
  @MinLength(MIN_SERVICE_SECRET_LENGTH)
  INTERNAL_API_SECRET!: string;

  /** During a rotation, the secret being replaced: still accepted on calls to this service. */
  @IsOptional()
  @IsString()
  @MinLength(MIN_SERVICE_SECRET_LENGTH)
  INTERNAL_API_PREVIOUS_SECRET?: string;

  /** Limit of one call to another service's internal API (it is tried twice), in ms. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(30_000)
  INTERNAL_API_TIMEOUT_MS = 2_000;
}

/** The variables `InternalApiServiceConfig` adds. */
export interface InternalApiVariables {
  INTERNAL_API_SECRET: string;
  INTERNAL_API_PREVIOUS_SECRET?: string;
  INTERNAL_API_TIMEOUT_MS: number;
}

/** The settings `AuthModule.forRoot(..., { internalApi })` takes for a service that serves an internal API. */
export function internalApiAuthFrom(config: InternalApiVariables, serviceName: string): InternalApiAuthSettings {
  return { serviceName, secret: config.INTERNAL_API_SECRET, previousSecret: config.INTERNAL_API_PREVIOUS_SECRET };
}
