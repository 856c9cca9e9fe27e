import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { FieldProblem } from '@erp/errors';
import { type InventoryReference, unknownInventoryProblems } from '../inventory-references';
import { InventoryRepository } from '../repository/inventory.repository';

/**
 * The rule that an order line names an item of the company's catalogue, checked in the order
 * write's own transaction (the items stay locked until it commits). The order use cases add its
 * problems to the rest of the request's, so one 400 lists them all.
 */
@Injectable()
export class CheckInventoryReferences {
  constructor(private readonly inventory: InventoryRepository) {}

  async execute(tx: EntityManager, companyId: string, refs: InventoryReference[]): Promise<FieldProblem[]> {
    if (refs.length === 0) return [];
    const existing = await this.inventory.existing(tx, companyId, [...new Set(refs.map((r) => r.inventoryId))]);
    return unknownInventoryProblems(refs, existing);
  }
}
