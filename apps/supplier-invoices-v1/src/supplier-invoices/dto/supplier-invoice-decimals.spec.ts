import { validateBodyShape } from '@erp/errors';
import { describeDecimalRule } from '@erp/testing';
import { InvoiceLineDto } from './supplier-invoice-write.dto';

/** The same suite as sales-orders-v3's (dto/sales-order-decimals.spec.ts): one decimal rule in every API. */
describeDecimalRule({ field: 'quantity', problemsOf: (quantity) => validateBodyShape(InvoiceLineDto, { quantity, unitPrice: '1' }).problems });
