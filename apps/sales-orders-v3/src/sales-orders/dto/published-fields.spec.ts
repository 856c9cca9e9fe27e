import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { CreateSalesOrderDto, NewOrderLineDto } from './create-sales-order.dto';
import {
  AddressAndContactDto,
  AddressDto,
  ContactDto,
  CreateCustomerReferenceDto,
  FreightDto,
  PatchAddressAndContactDto,
  PatchAddressDto,
  PatchContactDto,
  PatchCustomerReferenceDto,
  PatchShippingDto,
  PaymentSettingsDto,
  ShippingDto,
} from './order-parts.dto';
import { PatchSalesOrderDto } from './patch-sales-order.dto';
import { notSupportedPropertiesOf } from './published-fields';
import { AddLineDto, AddSalesOrderLinesDto, PatchLineEntryDto, PatchSalesOrderLinesDto } from './sales-order-lines.dto';

/**
 * The not-supported lists are checked against the repository's copy of the published document
 * (apps/sales-orders-v3/reference): a list naming a property the document does not declare would
 * let an undeclared property through, and a document property missing from both the DTO and its
 * list would refuse what generated clients send.
 */

interface Schema {
  properties?: Record<string, { $ref?: string; items?: { $ref?: string } }>;
}
interface PublishedDocument {
  paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { $ref: string } }> } }>>;
  components: { schemas: Record<string, Schema> };
}

const published = JSON.parse(
  readFileSync(join(__dirname, '../../../reference/published-v3-write-requests.json'), 'utf8'),
) as PublishedDocument;
const schemas = published.components.schemas;
const refName = (ref: string | undefined): string | undefined => ref?.split('/').pop();

type Dto = abstract new () => object;

/** Each request schema of the document and the DTO that reads it. */
const PAIRS: Array<[string, Dto]> = [
  ['NewSalesOrderCommand', CreateSalesOrderDto],
  ['NewSalesOrderCustomerDto', CreateCustomerReferenceDto],
  ['NewSalesOrderBillingDto', AddressAndContactDto],
  ['NewSalesOrderShippingDto', ShippingDto],
  ['NewSalesOrderAddressDto', AddressDto],
  ['NewSalesOrderContactDto', ContactDto],
  ['NewSalesOrderPaymentSettings', PaymentSettingsDto],
  ['NewSalesOrderLineDto', NewOrderLineDto],
  ['NewSalesOrderLineDto', AddLineDto],
  ['PatchSalesOrderCommand', PatchSalesOrderDto],
  ['PatchSalesOrderCustomerDto', PatchCustomerReferenceDto],
  ['PatchSalesOrderBillingDto', PatchAddressAndContactDto],
  ['PatchSalesOrderShippingDto', PatchShippingDto],
  ['PatchSalesOrderAddressDto', PatchAddressDto],
  ['PatchSalesOrderContactDto', PatchContactDto],
  ['PatchSalesOrderPaymentSettingsDto', PaymentSettingsDto],
  ['NewSalesOrderFreightDto', FreightDto],
  ['PatchSalesOrderFreightDto', FreightDto],
  ['AddSalesOrderLinesCommand', AddSalesOrderLinesDto],
  ['PatchSalesOrderLinesCommand', PatchSalesOrderLinesDto],
  ['PatchSalesOrderLineDto', PatchLineEntryDto],
];

function declaredBy(schema: string): string[] {
  return Object.keys(schemas[schema].properties ?? {}).sort();
}

/** Every property the DTO validates (so the pipe's whitelist accepts it), its parents' included. */
function propertiesOf(dto: Dto): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto as new () => object, '', true, false);
  return [...new Set(metadata.map((m) => m.propertyName))].sort();
}

describe('the not-supported properties of the request DTOs', () => {
  it('pairs every write operation of the document with the DTO its route validates', () => {
    const bodies = Object.values(published.paths).flatMap((ops) =>
      Object.values(ops).map((op) => refName(op.requestBody.content['application/json'].schema.$ref)),
    );
    expect(bodies.sort()).toEqual(['AddSalesOrderLinesCommand', 'NewSalesOrderCommand', 'PatchSalesOrderCommand', 'PatchSalesOrderLinesCommand']);
  });

  it.each(PAIRS.map(([schema, dto]) => [dto.name, schema, dto] as const))(
    '%s lists only properties that %s declares',
    (_name, schema, dto) => {
      const declared = new Set(declaredBy(schema));
      expect(notSupportedPropertiesOf(dto).filter((p) => !declared.has(p))).toEqual([]);
    },
  );

  it.each(PAIRS.map(([schema, dto]) => [dto.name, schema, dto] as const))(
    '%s accepts every property that %s declares (supported, or listed as not supported)',
    (_name, schema, dto) => {
      const accepted = new Set(propertiesOf(dto));
      expect(declaredBy(schema).filter((p) => !accepted.has(p))).toEqual([]);
    },
  );

  it('has a DTO for every schema a supported property of a paired schema refers to', () => {
    const paired = new Set(PAIRS.map(([schema]) => schema));
    const missing: string[] = [];
    for (const [schema, dto] of PAIRS) {
      const notSupported = new Set(notSupportedPropertiesOf(dto));
      for (const [property, value] of Object.entries(schemas[schema].properties ?? {})) {
        const target = refName(value.$ref ?? value.items?.$ref);
        if (target && !notSupported.has(property) && !paired.has(target)) missing.push(`${schema}.${property} -> ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('keeps the document\'s line direction as the one not-supported property with its own message', () => {
    expect(notSupportedPropertiesOf(AddLineDto)).toContain('operation');
    expect(notSupportedPropertiesOf(PatchLineEntryDto)).toContain('operation');
  });
});
