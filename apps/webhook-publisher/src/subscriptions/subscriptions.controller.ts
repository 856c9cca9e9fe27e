import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CompanyId, RequiredScope, SCOPES } from '@erp/auth';
import { ApiBody, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiAuthenticated, ApiErrors, ApiJsonResponse, ApiV3Paging, LOCATION_HEADER, ref } from '@erp/openapi';
import { CreateSubscriptionDto, ReplayDto, UpdateSubscriptionDto } from './dto/subscription.dto';
import type { CreatedSubscription, DeliveryAttemptView, Page, ReplayQueued, RotatedSecret, SubscriptionView } from './subscription-views';
import { CreateSubscription } from './use-cases/create-subscription.use-case';
import { DeleteSubscription } from './use-cases/delete-subscription.use-case';
import { GetSubscription } from './use-cases/get-subscription.use-case';
import { ListDeliveryAttempts } from './use-cases/list-delivery-attempts.use-case';
import { ListSubscriptions } from './use-cases/list-subscriptions.use-case';
import { ReplayEvents } from './use-cases/replay-events.use-case';
import { RotateSubscriptionSecret } from './use-cases/rotate-secret.use-case';
import { UpdateSubscription } from './use-cases/update-subscription.use-case';

type RawQuery = Record<string, string | string[] | undefined>;

function rawQueryOf(request: FastifyRequest): string {
  const index = request.url.indexOf('?');
  return index < 0 ? '' : request.url.slice(index + 1);
}

/** `/api/webhooks/subscriptions`: problem+json errors, scope webhooks:manage, scoped by company. */
const ID_PARAM = ApiParam({ name: 'id', description: 'Subscription id', schema: { type: 'string', format: 'uuid' } });

@Controller('api/webhooks/subscriptions')
@ApiTags('Webhooks')
@ApiAuthenticated('problem')
@RequiredScope(SCOPES.manageWebhooks)
export class SubscriptionsController {
  constructor(
    private readonly createSubscription: CreateSubscription,
    private readonly listSubscriptions: ListSubscriptions,
    private readonly getSubscription: GetSubscription,
    private readonly updateSubscription: UpdateSubscription,
    private readonly deleteSubscription: DeleteSubscription,
    private readonly rotateSubscriptionSecret: RotateSubscriptionSecret,
    private readonly listDeliveryAttempts: ListDeliveryAttempts,
    private readonly replayEvents: ReplayEvents,
  ) {}

  /** 201 with the secret, which is shown only here. */
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Subscribe to webhook events', description: 'Needs scope `webhooks:manage`. The secret is shown only in this answer.' })
  @ApiBody({ schema: ref('SubscriptionCreate') })
  @ApiJsonResponse(201, 'Created, with the signing secret', 'SubscriptionCreated', LOCATION_HEADER)
  @ApiErrors('problem', 415)
  async create(
    @CompanyId() companyId: string,
    @Body() dto: CreateSubscriptionDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatedSubscription> {
    const created = await this.createSubscription.execute(companyId, dto);
    reply.header('location', `/api/webhooks/subscriptions/${created.id}`);
    return created;
  }

  @Get()
  @ApiOperation({ summary: 'List webhook subscriptions' })
  @ApiV3Paging(100, 100)
  @ApiJsonResponse(200, 'A page of subscriptions', 'SubscriptionPage')
  list(@CompanyId() companyId: string, @Query() query: RawQuery, @Req() request: FastifyRequest): Promise<Page<SubscriptionView>> {
    return this.listSubscriptions.execute(companyId, query, rawQueryOf(request));
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a webhook subscription' })
  @ID_PARAM
  @ApiJsonResponse(200, 'The subscription', 'Subscription')
  @ApiErrors('problem', 404)
  get(@CompanyId() companyId: string, @Param('id') id: string): Promise<SubscriptionView> {
    return this.getSubscription.execute(companyId, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change a webhook subscription', description: 'url, eventTypes, enabled, description.' })
  @ID_PARAM
  @ApiBody({ schema: ref('SubscriptionUpdate') })
  @ApiJsonResponse(200, 'The changed subscription', 'Subscription')
  @ApiErrors('problem', 404, 415)
  update(@CompanyId() companyId: string, @Param('id') id: string, @Body() dto: UpdateSubscriptionDto): Promise<SubscriptionView> {
    return this.updateSubscription.execute(companyId, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook subscription' })
  @ID_PARAM
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiErrors('problem', 404)
  async remove(@CompanyId() companyId: string, @Param('id') id: string): Promise<void> {
    await this.deleteSubscription.execute(companyId, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({ summary: 'Rotate the signing secret', description: 'The old and the new secret both sign for 24 h.' })
  @ID_PARAM
  @ApiJsonResponse(200, 'The new secret', 'SecretRotated')
  @ApiErrors('problem', 404)
  rotateSecret(@CompanyId() companyId: string, @Param('id') id: string): Promise<RotatedSecret> {
    return this.rotateSubscriptionSecret.execute(companyId, id);
  }

  @Get(':id/deliveries')
  @ApiOperation({ summary: 'List delivery attempts', description: 'Time, status, response code and latency of each attempt, newest first.' })
  @ID_PARAM
  @ApiV3Paging(100, 100)
  @ApiJsonResponse(200, 'A page of attempts', 'DeliveryAttemptPage')
  @ApiErrors('problem', 404)
  deliveries(
    @CompanyId() companyId: string,
    @Param('id') id: string,
    @Query() query: RawQuery,
    @Req() request: FastifyRequest,
  ): Promise<Page<DeliveryAttemptView>> {
    return this.listDeliveryAttempts.execute(companyId, id, query, rawQueryOf(request));
  }

  /** 202: the window's events are queued; the worker sends them in their original order. */
  @Post(':id/replay')
  @HttpCode(202)
  @ApiOperation({ summary: 'Replay events', description: "Re-queues the subscription's events of the window; they are sent in their original order." })
  @ID_PARAM
  @ApiBody({ schema: ref('Replay') })
  @ApiJsonResponse(202, 'Queued', 'ReplayQueued')
  @ApiErrors('problem', 404, 415)
  replay(@CompanyId() companyId: string, @Param('id') id: string, @Body() dto: ReplayDto): Promise<ReplayQueued> {
    return this.replayEvents.execute(companyId, id, dto);
  }
}
