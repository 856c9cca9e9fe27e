import { Injectable } from '@nestjs/common';
import { DeliveryWorkerService } from '../../delivery/delivery-worker.service';
import type { ReplayDto } from '../dto/subscription.dto';
import { SubscriptionsRepository } from '../repository/subscriptions.repository';
import { replayWindow } from '../rules/subscription-rules';
import type { ReplayQueued } from '../subscription-views';
import { GetSubscription } from './get-subscription.use-case';

/**
 * POST /api/webhooks/subscriptions/{id}/replay: the window is checked before the subscription
 * (400 before 404), its events are queued again and the worker is woken to send them in order.
 */
@Injectable()
export class ReplayEvents {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly getSubscription: GetSubscription,
    private readonly worker: DeliveryWorkerService,
  ) {}

  async execute(companyId: string, id: string, dto: ReplayDto): Promise<ReplayQueued> {
    const { since, until } = replayWindow(dto);
    await this.getSubscription.execute(companyId, id);
    const queued = await this.subscriptions.requeue(companyId, id, since, until);
    this.worker.wake();
    return { queued, since: since.toISOString(), until: until.toISOString() };
  }
}
