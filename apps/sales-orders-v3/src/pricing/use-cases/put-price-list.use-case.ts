import { Injectable } from '@nestjs/common';
import { bodyProblemsOf, DETAIL_CODES, ValidationFailedError } from '@erp/errors';
import { decimalText } from '@erp/decimals';
import { inventoryReferences } from '../../inventory/inventory-references';
import { CustomerReferences } from '../../customers/customer-references';
import { CheckInventoryReferences } from '../../inventory/use-cases/check-inventory-references.use-case';
import { PRICE_LIST_ID, PRICE_LIST_MESSAGE, type PriceListEntryDto, type PutPriceListDto } from '../dto/price-rules.dto';
import { priceListProblems, priceListReferences, unknownReferenceProblems } from '../price-rule-problems';
import { PriceListsRepository, type PriceListEntryRecord } from '../repository/price-lists.repository';

const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

function entryRecord(e: PriceListEntryDto): PriceListEntryRecord {
  return {
    inventory_id: e.inventoryId,
    customer_id: orNull(e.customerId),
    price_class_id: orNull(e.priceClassId),
    min_quantity: decimalText(e.minQuantity ?? 0),
    unit_price: decimalText(e.unitPrice),
    discount_percent: e.discountPercent === undefined || e.discountPercent === null ? null : decimalText(e.discountPercent),
    effective_from: orNull(e.effectiveFrom),
    effective_to: orNull(e.effectiveTo),
  };
}

/**
 * PUT /api/v3/PriceLists/{priceListId} (an extension): creates or replaces the list and all its
 * entries in one transaction; every problem (shape, rules, unknown items, customers, classes) in one
 * 400, nothing written. Orders already written keep their prices: the rules price a line when it is written.
 */
@Injectable()
export class PutPriceList {
  constructor(
    private readonly lists: PriceListsRepository,
    private readonly inventory: CheckInventoryReferences,
    private readonly customerReferences: CustomerReferences,
  ) {}

  async execute(companyId: string, id: string, dto: PutPriceListDto): Promise<{ json: string; created: boolean }> {
    const problems = [...bodyProblemsOf(dto), ...priceListProblems(dto)];
    if (!PRICE_LIST_ID.test(id)) problems.unshift({ field: 'priceListId', message: `priceListId ${PRICE_LIST_MESSAGE}`, code: DETAIL_CODES.invalidValue });
    const refs = priceListReferences(dto);
    // Before the transaction: a customer created a moment ago is asked of customers-v1.
    const customers = await this.customerReferences.existing(companyId, refs.customers.map((r) => r.id));
    problems.push(...unknownReferenceProblems(refs.customers, customers, 'customer', 'create it with POST /v1/customer'));
    return this.lists.transaction(async (tx) => {
      problems.push(...(await this.inventory.execute(tx, companyId, inventoryReferences(dto.entries, 'entries'))));
      const classes = await this.lists.existingClasses(tx, companyId, refs.classes.map((r) => r.id));
      problems.push(...unknownReferenceProblems(refs.classes, classes, 'price class', 'create it with PUT /api/v3/PriceClasses/{priceClassId}'));
      if (problems.length > 0) throw new ValidationFailedError(problems);
      const created = await this.lists.putList(tx, companyId, id, { description: dto.description ?? null, currencyId: dto.currencyId }, (dto.entries ?? []).map(entryRecord));
      return { json: (await this.lists.listJson(companyId, id, tx)) as string, created };
    });
  }
}
