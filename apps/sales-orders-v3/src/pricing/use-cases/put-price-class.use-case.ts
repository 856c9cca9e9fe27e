import { Injectable } from '@nestjs/common';
import { bodyProblemsOf, DETAIL_CODES, type FieldProblem, ValidationFailedError } from '@erp/errors';
import { CUSTOMER_ID_PATTERN } from '../../sales-orders/dto/order-parts.dto';
import { PRICE_CLASS_ID, PRICE_CLASS_MESSAGE, type PutPriceClassDto } from '../dto/price-rules.dto';
import { repeatedCustomerProblems, unknownReferenceProblems } from '../price-rule-problems';
import { CustomerReferences } from '../../customers/customer-references';
import { PriceListsRepository } from '../repository/price-lists.repository';

/**
 * PUT /api/v3/PriceClasses/{priceClassId} (an extension): creates or replaces the class and its
 * customers. A customer is in at most one class: one that another class holds is a 400 naming that
 * class (remove it there first), rather than a silent move.
 */
@Injectable()
export class PutPriceClass {
  constructor(
    private readonly lists: PriceListsRepository,
    private readonly customerReferences: CustomerReferences,
  ) {}

  async execute(companyId: string, id: string, dto: PutPriceClassDto): Promise<{ json: string; created: boolean }> {
    const problems = [...bodyProblemsOf(dto), ...repeatedCustomerProblems(dto.customers)];
    if (!PRICE_CLASS_ID.test(id)) problems.unshift({ field: 'priceClassId', message: `priceClassId ${PRICE_CLASS_MESSAGE}`, code: DETAIL_CODES.invalidValue });
    const customers = Array.isArray(dto.customers) ? dto.customers : [];
    const refs = customers.flatMap((c, i) => (typeof c === 'string' && CUSTOMER_ID_PATTERN.test(c) ? [{ field: `customers[${i}]`, id: c }] : []));
    // Before the transaction: a customer created a moment ago is asked of customers-v1.
    const known = await this.customerReferences.existing(companyId, refs.map((r) => r.id));
    problems.push(...unknownReferenceProblems(refs, known, 'customer', 'create it with POST /v1/customer'));
    return this.lists.transaction(async (tx) => {
      if (problems.length > 0) throw new ValidationFailedError(problems);
      const { created, taken } = await this.lists.putClass(tx, companyId, id, dto.description ?? null, customers);
      const conflicts: FieldProblem[] = refs
        .filter((r) => taken.has(r.id))
        .map((r) => ({ field: r.field, message: `customer ${r.id} is in price class ${taken.get(r.id)}; remove it there first`, code: DETAIL_CODES.invalidValue }));
      if (conflicts.length > 0) throw new ValidationFailedError(conflicts);
      return { json: (await this.lists.classJson(companyId, id, tx)) as string, created };
    });
  }
}
