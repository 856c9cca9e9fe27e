import { validateBodyShape } from '@erp/errors';
import { describeDecimalRule } from '@erp/testing';
import { LineFieldsDto } from './order-parts.dto';

/** The same suite as supplier-invoices-v1's (dto/supplier-invoice-decimals.spec.ts): one decimal rule in every API. */
describeDecimalRule({ field: 'quantity', problemsOf: (quantity) => validateBodyShape(LineFieldsDto, { quantity }).problems });
