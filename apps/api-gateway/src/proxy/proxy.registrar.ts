import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { TokenVerifier } from '@erp/auth';
import type { GatewayConfig } from '../config';
import { proxyPlugin } from './proxy.plugin';
import { GatewayRoutes } from './gateway-routes';

/** Mounts the proxy on the Fastify instance under Nest, next to the gateway's own controllers. */
@Injectable()
export class ProxyRegistrar implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly verifier: TokenVerifier,
    @Inject('GATEWAY_CONFIG') private readonly config: GatewayConfig,
    private readonly routes: GatewayRoutes,
  ) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(proxyPlugin, {
      routes: this.routes,
      upstreams: this.routes.upstreams,
      verifier: this.verifier,
      upstreamTimeoutMs: 300_000,
      rateLimitPerCompanyPerMinute: this.config.RATE_LIMIT_PER_COMPANY_PER_MINUTE,
    });
  }
}
