import type { INestApplication } from '@nestjs/common';
import { NestMicroservice } from '@nestjs/microservices';
import type { HybridMicroservice } from '@erp/bootstrap';
import { EventHandlerFailureFilter } from './event-handler-failure.filter';
import { EventPayloadValidationPipe } from './event-payload.pipe';
import type { KafkaEventTransport } from './kafka-event-transport';

/**
 * Connects the Kafka event transport to a service's app (the shared bootstrap calls `connect`), with
 * the event side's own global pipe and filter: the HTTP app's (problem details, the request body
 * pipe) mean nothing to an event, so the microservice does not inherit them.
 */
export class KafkaEventMicroservice implements HybridMicroservice {
  constructor(private readonly transport: KafkaEventTransport) {}

  connect(app: INestApplication): void {
    // Deferred so the global pipe and filter are in place before the handlers are registered
    // (Nest builds each handler's pipeline when it registers it); the rest is what
    // connectMicroservice does when not deferred. The app runs the lifecycle hooks, once.
    const microservice = app.connectMicroservice({ strategy: this.transport }, { inheritAppConfig: false, deferInitialization: true });
    if (!(microservice instanceof NestMicroservice)) throw new Error('connectMicroservice did not return a NestMicroservice');
    microservice.useGlobalPipes(new EventPayloadValidationPipe());
    microservice.useGlobalFilters(new EventHandlerFailureFilter());
    microservice.registerListeners();
    microservice.setIsInitialized(true);
    microservice.setIsInitHookCalled(true);
  }
}
