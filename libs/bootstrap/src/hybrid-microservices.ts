import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

/**
 * A microservice a service runs beside its HTTP server (a Nest hybrid application). A library
 * that brings one (the Kafka event transport of `@erp/messaging`) provides it under
 * `HYBRID_MICROSERVICE`; the shared bootstrap connects every one it finds when it creates the app
 * and starts them before the HTTP server listens. Declared here, not in the library, so the
 * bootstrap stays free of any one transport.
 */
export interface HybridMicroservice {
  /** Calls `app.connectMicroservice(...)` and configures what it connected. */
  connect(app: INestApplication): void;
}

export const HYBRID_MICROSERVICE = Symbol('HYBRID_MICROSERVICE');

/** Connects the microservices the app's modules provide (none for an HTTP-only service). */
export function connectHybridMicroservices(app: INestApplication): void {
  for (const microservice of providedMicroservices(app)) microservice.connect(app);
}

function providedMicroservices(app: INestApplication): HybridMicroservice[] {
  // Looked up through the module graph rather than `app.get`, which throws for a token no module
  // provides (every HTTP-only service) with an exception class Nest does not export.
  return [...app.get(ModulesContainer).values()].flatMap((module) => {
    const instance: unknown = module.providers.get(HYBRID_MICROSERVICE)?.instance;
    return instance ? [instance as HybridMicroservice] : [];
  });
}
