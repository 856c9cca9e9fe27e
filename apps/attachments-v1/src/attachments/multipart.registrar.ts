import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/**
 * Adds multipart/form-data to this service's Fastify instance (and only this service's: the
 * shared app factory accepts JSON alone). The parser only marks the request as multipart; the
 * upload handler reads the parts as a stream, so nothing is buffered here. Limits are set per
 * request by the handler.
 */
@Injectable()
export class MultipartRegistrar implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // Queued, not awaited: awaiting would load the plugin queue now, settling the routes before
    // Nest installs its error handler, and Fastify's own errors (415) would skip the v1 shape.
    fastify.register(fastifyMultipart, { throwFileSizeLimit: true });
  }
}
