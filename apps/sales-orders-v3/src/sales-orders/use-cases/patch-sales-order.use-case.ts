import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { bodyProblemsOf, type FieldProblem, NotFoundError, PreconditionFailedError, ValidationFailedError } from '@erp/errors';
import { ifMatchAllows, type IfMatchCondition, versionsForUpdate } from '@erp/etag';
import { CustomerReferences } from '../../customers/customer-references';
import type { CustomerSnapshot } from '../../customers/customer-snapshots.service';
import { inventoryReferences } from '../../inventory/inventory-references';
import { CheckInventoryReferences } from '../../inventory/use-cases/check-inventory-references.use-case';
import { PriceOrderLines } from '../../pricing/use-cases/price-order-lines.use-case';
import type { PatchLineDto, PatchSalesOrderDto } from '../dto/patch-sales-order.dto';
import type { HeaderChanges } from '../repository/header-changes';
import { freightColumns, instantOf, lineChanges, lineRecord, paymentSettings, viewColumns } from '../repository/order-records';
import { SalesOrderLinesRepository } from '../repository/sales-order-lines.repository';
import { type OrderKey, SalesOrdersRepository, type WrittenOrder } from '../repository/sales-orders.repository';
import {
  byField,
  customerIdToCheck,
  customerProblems,
  type LineIdField,
  PATCH_LINE_ID_FIELD,
  patchRuleProblems,
  referencedLineIds,
  unknownLineProblems,
} from '../rules/sales-order-rules';
import { updateRepricesLine } from '../rules/line-pricing-rules';
import { rotRutLineProblems, rotRutLineRefs } from '../rules/order-view-rules';
import { OrderChange } from './order-change';

/**
 * PATCH, all or nothing. Order of answers (RFC 9110: preconditions before the content is
 * processed): 404 when the order does not exist (for this company), 412 when If-Match does not
 * match, then 400 listing every problem of the body; nothing is applied on any of them.
 *
 * The version check IS the write: one conditional UPDATE of the header that the database
 * evaluates on the latest row version while holding its lock. Concurrent PATCHes with the same
 * ETag queue on that lock; the first commits and the others then match nothing (412). Line
 * changes run in the same transaction only after that UPDATE succeeded, so they apply to exactly
 * the version the client read, and every line writer holds the header lock first, so the line ids
 * checked after it cannot change before the commit.
 */
@Injectable()
export class PatchSalesOrder {
  constructor(
    private readonly orders: SalesOrdersRepository,
    private readonly lines: SalesOrderLinesRepository,
    private readonly customers: CustomerReferences,
    private readonly change: OrderChange,
    private readonly inventory: CheckInventoryReferences,
    private readonly pricing: PriceOrderLines,
  ) {}

  execute(key: OrderKey, dto: PatchSalesOrderDto, ifMatch: IfMatchCondition): Promise<WrittenOrder> {
    return this.apply(key, dto, ifMatch, [...bodyProblemsOf(dto), ...patchRuleProblems(dto)]);
  }

  /**
   * The PATCH itself, for a body whose own problems the caller found: the line operations on
   * `.../lines` turn their request into a PATCH body and come here, so their If-Match, atomicity,
   * totals and event are exactly the PATCH's. `lineIdField` names an unknown line id in the
   * caller's request (`ids[3]` for DELETE `?ids=`).
   */
  async apply(key: OrderKey, dto: PatchSalesOrderDto, ifMatch: IfMatchCondition, problems: FieldProblem[], lineIdField = PATCH_LINE_ID_FIELD): Promise<WrittenOrder> {
    // Before the transaction: finding the customer may mean asking customers-v1 (no connection held meanwhile).
    const customerId = customerIdToCheck(dto.customer);
    const customer = customerId ? await this.customers.find(key.companyId, customerId) : undefined;
    if (customerId) problems.push(...customerProblems(customerId, customer));
    return this.orders.transaction(async (tx) => {
      problems.push(...(await this.inventory.execute(tx, key.companyId, lineItemReferences(dto))));
      if (problems.length > 0) return this.reject(tx, key, ifMatch, dto, problems, lineIdField);

      const lines = dto.lines ?? [];
      const inserts = lines.filter((l) => l.operation === 'insert');
      const updates = lines.filter((l) => l.operation === 'update');
      const deletes = lines.filter((l) => l.operation === 'delete');

      const versions = versionsForUpdate(ifMatch);
      const changes = headerChanges(dto, customer, inserts.length);
      const repricing = headerRepricing(dto);
      if (lines.length === 0 && !repricing && !changesTotals(dto)) {
        // No line to check or change: the conditional UPDATE answers the order as written itself.
        const order = await this.orders.updateIfMatchReturningOrder(tx, key, versions, changes);
        if (!order) throw await this.change.missingOrStale(tx, key);
        await this.checkRotRutLines(tx, key, dto);
        return this.change.announce(tx, key.companyId, order, 'SALESORDER_UPDATED');
      }

      const updated = await this.orders.updateIfMatch(tx, key, versions, changes);
      if (!updated) throw await this.change.missingOrStale(tx, key);
      const { companyId } = key;
      const { internalId, lastLineId } = updated;

      const lineProblems = await this.unknownLines(tx, companyId, internalId, dto, lineIdField);
      if (lineProblems.length > 0) throw new ValidationFailedError(lineProblems);

      if (deletes.length > 0) await this.lines.delete(tx, companyId, internalId, deletes.map((l) => l.lineId as number));
      if (updates.length > 0) await this.lines.update(tx, companyId, internalId, updates.map(lineChanges));
      if (inserts.length > 0) {
        const sortBase = await this.lines.maxSortOrder(tx, companyId, internalId);
        const records = inserts.map((line, i) => lineRecord(line, i + 1));
        await this.lines.insert(tx, companyId, internalId, lastLineId - inserts.length, records, sortBase);
      }
      const priced = pricedLines(lines, lastLineId - inserts.length);
      const fieldOf = (lineId: number) => (priced.has(lineId) ? `lines[${priced.get(lineId)}].unitPrice` : (repricing ?? 'lines'));
      await this.pricing.execute(tx, companyId, internalId, repricing ? null : [...priced.keys()], fieldOf);
      await this.checkRotRutLines(tx, key, dto);
      return this.change.announce(tx, companyId, await this.change.totals(tx, companyId, internalId), 'SALESORDER_UPDATED');
    });
  }

  /**
   * A PATCH already known to be invalid writes nothing; it still answers 404 and 412 first, then
   * adds the unknown line ids to the problems so the 400 lists everything.
   */
  private async reject(
    tx: EntityManager,
    key: OrderKey,
    ifMatch: IfMatchCondition,
    dto: PatchSalesOrderDto,
    problems: FieldProblem[],
    lineIdField: LineIdField,
  ): Promise<never> {
    const order = await this.orders.findState(key, tx);
    if (!order) throw new NotFoundError(`Sales order ${key.type} ${key.orderId}`);
    if (!ifMatchAllows(ifMatch, order.version)) throw new PreconditionFailedError();
    const lineProblems = await this.unknownLines(tx, key.companyId, order.internalId, dto, lineIdField);
    throw new ValidationFailedError([...problems, ...lineProblems].sort(byField));
  }

  /**
   * A ROT/RUT distribution sent with the PATCH names lines the order has once the PATCH's line
   * changes are applied (so a line inserted by the same PATCH counts). Checked after the write, in
   * its transaction: a problem rolls everything back. Only reached when the rest of the body is valid.
   */
  private async checkRotRutLines(tx: EntityManager, key: OrderKey, dto: PatchSalesOrderDto): Promise<void> {
    const refs = rotRutLineRefs(dto);
    if (refs.length === 0) return;
    const problems = rotRutLineProblems(refs, await this.lines.existingIdsOfOrder(tx, key, refs.map((r) => r.lineId)));
    if (problems.length > 0) throw new ValidationFailedError(problems);
  }

  private async unknownLines(tx: EntityManager, companyId: string, internalId: string, dto: PatchSalesOrderDto, lineIdField: LineIdField): Promise<FieldProblem[]> {
    const refs = referencedLineIds(dto);
    const existing = await this.lines.existingIds(tx, companyId, internalId, refs.map((r) => r.lineId));
    return unknownLineProblems(refs, existing, lineIdField);
  }
}

/** The items that inserted and updated lines name (`lines[i].inventoryId`): each must exist in the company's catalogue. */
function lineItemReferences(dto: PatchSalesOrderDto) {
  const lines: unknown[] = Array.isArray(dto.lines) ? dto.lines : [];
  return inventoryReferences(lines.map((l) => ((l as { operation?: unknown } | null)?.operation === 'delete' ? undefined : l)), 'lines');
}

/**
 * The header field whose change reprices every line that takes its price or discount from the rules
 * (they depend on the order's customer, currency and date), or undefined when the body changes none.
 */
function headerRepricing(dto: PatchSalesOrderDto): string | undefined {
  if (dto.customer?.id !== undefined) return 'customer.id';
  if (dto.currencyId !== undefined) return 'currencyId';
  return dto.date !== undefined ? 'date' : undefined;
}

/** Header fields the stored totals depend on besides the lines (the rate depends on currency and date: headerRepricing). */
function changesTotals(dto: PatchSalesOrderDto): boolean {
  return dto.discounts !== undefined || dto.taxes !== undefined || dto.freight !== undefined;
}

/**
 * The lines of the body the price rules may change, by line id -> index in `lines`: every inserted
 * line (ids follow `firstNewLineId` in body order) and the updates of item, quantity, price,
 * discount or their flags. The statement itself skips lines that keep both price and discount.
 */
function pricedLines(lines: PatchLineDto[], firstNewLineId: number): Map<number, number> {
  const priced = new Map<number, number>();
  let inserted = 0;
  lines.forEach((line, index) => {
    if (line.operation === 'insert') priced.set(firstNewLineId + ++inserted, index);
    else if (line.operation === 'update' && updateRepricesLine(line)) priced.set(line.lineId as number, index);
  });
  return priced;
}

/** The header columns a valid PATCH body changes (absent fields stay as they are). */
function headerChanges(dto: PatchSalesOrderDto, customer: CustomerSnapshot | undefined, insertedLines: number): HeaderChanges {
  return {
    description: dto.description,
    note: dto.note,
    currencyId: dto.currencyId,
    status: dto.status,
    orderDate: dto.date === undefined ? undefined : instantOf(dto.date),
    requestOn: dto.requestOn === undefined ? undefined : instantOf(dto.requestOn),
    cancelBy: dto.cancelBy === undefined ? undefined : instantOf(dto.cancelBy),
    customerId: customer?.customerId,
    customerName: customer?.name,
    customerOrder: dto.customer?.order,
    customerRefNo: dto.customer?.refNo,
    billing: dto.billing,
    shipping: dto.shipping,
    paymentSettings: dto.paymentSettings === undefined && dto.customer?.termsId === undefined ? undefined : paymentSettings(dto.paymentSettings, dto.customer?.termsId),
    insertedLines,
    ...viewColumns(dto),
    ...freightColumns(dto.freight),
  };
}
