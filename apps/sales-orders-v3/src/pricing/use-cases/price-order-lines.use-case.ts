import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ValidationFailedError } from '@erp/errors';
import { unpricedProblems } from '../../sales-orders/rules/line-pricing-rules';
import { PriceRulesRepository } from '../repository/price-rules.repository';

/**
 * The price rules applied by the order writes, after their lines are written and in their
 * transaction: lines that take their price or discount from the rules get them. A line that needs a
 * rule price and has none refuses the whole write (400 at the field `fieldOf` names), so nothing is applied.
 */
@Injectable()
export class PriceOrderLines {
  constructor(private readonly rules: PriceRulesRepository) {}

  async execute(tx: EntityManager, companyId: string, internalId: string, lineIds: number[] | null, fieldOf: (lineId: number) => string): Promise<void> {
    if (lineIds !== null && lineIds.length === 0) return;
    const unpriced = await this.rules.reprice(tx, companyId, internalId, lineIds);
    if (unpriced.length > 0) throw new ValidationFailedError(unpricedProblems(unpriced, fieldOf));
  }
}
