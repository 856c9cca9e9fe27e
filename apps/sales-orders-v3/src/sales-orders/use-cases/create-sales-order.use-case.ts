import { Injectable } from '@nestjs/common';
import { bodyProblemsOf, ValidationFailedError } from '@erp/errors';
import type { OrderType } from '@erp/sales-orders-queries';
import { CustomerReferences } from '../../customers/customer-references';
import { inventoryReferences } from '../../inventory/inventory-references';
import { CheckInventoryReferences } from '../../inventory/use-cases/check-inventory-references.use-case';
import { PriceOrderLines } from '../../pricing/use-cases/price-order-lines.use-case';
import type { CreateSalesOrderDto } from '../dto/create-sales-order.dto';
import { addressAndContact, freightColumns, instantOf, lineRecord, paymentSettings, viewColumns } from '../repository/order-records';
import { SalesOrderLinesRepository } from '../repository/sales-order-lines.repository';
import { SalesOrdersRepository, type WrittenOrder } from '../repository/sales-orders.repository';
import { byField, createRuleProblems, customerIdToCheck, customerProblems } from '../rules/sales-order-rules';
import { OrderChange } from './order-change';

/**
 * POST /api/v3/SalesOrders: every problem of the body (shape, rules, order type, customer, items) in one
 * 400; otherwise the order, its lines (priced by the rules where the client left the price or discount
 * to them), its totals and its SALESORDER_CREATED event in one transaction.
 */
@Injectable()
export class CreateSalesOrder {
  constructor(
    private readonly orders: SalesOrdersRepository,
    private readonly lines: SalesOrderLinesRepository,
    private readonly customers: CustomerReferences,
    private readonly change: OrderChange,
    private readonly inventory: CheckInventoryReferences,
    private readonly pricing: PriceOrderLines,
  ) {}

  async execute(companyId: string, dto: CreateSalesOrderDto): Promise<WrittenOrder> {
    const problems = [...bodyProblemsOf(dto), ...createRuleProblems(dto)];
    // Before the transaction: finding the customer may mean asking customers-v1 (no connection held meanwhile).
    const customerId = customerIdToCheck(dto.customer);
    const customer = customerId ? await this.customers.find(companyId, customerId) : undefined;
    if (customerId) problems.push(...customerProblems(customerId, customer));
    return this.orders.transaction(async (tx) => {
      problems.push(...(await this.inventory.execute(tx, companyId, inventoryReferences(dto.orderLines, 'orderLines'))));
      if (problems.length > 0 || !customer) throw new ValidationFailedError(problems.sort(byField));

      const type = dto.type as OrderType;
      const orderId = await this.orders.nextOrderId(tx, companyId, type);
      const lines = dto.orderLines ?? [];
      const internalId = await this.orders.insert(
        tx,
        { companyId, type, orderId },
        {
          status: dto.status ?? 'Open',
          orderDate: instantOf(dto.date),
          requestOn: instantOf(dto.requestOn),
          cancelBy: instantOf(dto.cancelBy),
          description: dto.description ?? null,
          note: dto.note ?? null,
          currencyId: dto.currencyId ?? customer.currencyId,
          customerId: customer.customerId,
          customerName: customer.name,
          customerOrder: dto.customer.order ?? null,
          customerRefNo: dto.customer.refNo ?? null,
          billing: addressAndContact(dto.billing),
          shipping: addressAndContact(dto.shipping),
          paymentSettings: { terms: null, method: null, ...paymentSettings(dto.paymentSettings, dto.customer.termsId) },
          lineCount: lines.length,
          ...viewColumns(dto),
          ...freightColumns(dto.freight),
        },
      );
      // Totals are computed even without lines: freight, and the base currency's rate on the order date.
      if (lines.length === 0) return this.change.announce(tx, companyId, await this.change.totals(tx, companyId, internalId), 'SALESORDER_CREATED');
      const records = lines.map((line, i) => lineRecord(line, i + 1));
      // Line i of the request is line id i + 1.
      const ruleLineIds = records.flatMap((r, i) => (r.has_manual_price && r.has_manual_discount ? [] : [i + 1]));
      await this.lines.insert(tx, companyId, internalId, 0, records);
      await this.pricing.execute(tx, companyId, internalId, ruleLineIds, (lineId) => `orderLines[${lineId - 1}].unitPrice`);
      return this.change.announce(tx, companyId, await this.change.totals(tx, companyId, internalId), 'SALESORDER_CREATED');
    });
  }
}
