import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CompanyId, RequiredScope, SCOPES } from '@erp/auth';
import { CreateSubscriptionDto, ReplayDto, UpdateSubscriptionDto } from './dto/subscription.dto';
import {
  type DeliveryAttemptView,
  type Page,
  type SubscriptionView,
  SubscriptionsService,
} from './subscriptions.service';

type RawQuery = Record<string, string | string[] | undefined>;

function rawQueryOf(request: FastifyRequest): string {
  const index = request.url.indexOf('?');
  return index < 0 ? '' : request.url.slice(index + 1);
}

/** `/api/webhooks/subscriptions`: problem+json errors, scope webhooks:manage, scoped by company. */
@Controller('api/webhooks/subscriptions')
@RequiredScope(SCOPES.manageWebhooks)
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  /** 201 with the secret, which is shown only here. */
  @Post()
  @HttpCode(201)
  async create(
    @CompanyId() companyId: string,
    @Body() dto: CreateSubscriptionDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SubscriptionView & { secret: string }> {
    const created = await this.subscriptions.create(companyId, dto);
    reply.header('location', `/api/webhooks/subscriptions/${created.id}`);
    return created;
  }

  @Get()
  list(@CompanyId() companyId: string, @Query() query: RawQuery, @Req() request: FastifyRequest): Promise<Page<SubscriptionView>> {
    return this.subscriptions.list(companyId, query, rawQueryOf(request));
  }

  @Get(':id')
  get(@CompanyId() companyId: string, @Param('id') id: string): Promise<SubscriptionView> {
    return this.subscriptions.get(companyId, id);
  }

  @Patch(':id')
  update(@CompanyId() companyId: string, @Param('id') id: string, @Body() dto: UpdateSubscriptionDto): Promise<SubscriptionView> {
    return this.subscriptions.update(companyId, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CompanyId() companyId: string, @Param('id') id: string): Promise<void> {
    await this.subscriptions.remove(companyId, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotateSecret(
    @CompanyId() companyId: string,
    @Param('id') id: string,
  ): Promise<{ id: string; secret: string; previousSecretExpiresAt: string }> {
    return this.subscriptions.rotateSecret(companyId, id);
  }

  @Get(':id/deliveries')
  deliveries(
    @CompanyId() companyId: string,
    @Param('id') id: string,
    @Query() query: RawQuery,
    @Req() request: FastifyRequest,
  ): Promise<Page<DeliveryAttemptView>> {
    return this.subscriptions.deliveries(companyId, id, query, rawQueryOf(request));
  }

  /** 202: the window's events are queued; the worker sends them in their original order. */
  @Post(':id/replay')
  @HttpCode(202)
  replay(
    @CompanyId() companyId: string,
    @Param('id') id: string,
    @Body() dto: ReplayDto,
  ): Promise<{ queued: number; since: string; until: string }> {
    return this.subscriptions.replay(companyId, id, dto);
  }
}
