import { getMetadataStorage } from 'class-validator';
import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';
import { CreateSupplierInvoiceDto } from './dto/supplier-invoice-write.dto';
import { WRITABLE_COLUMNS } from './repository/invoice-changes';
import { SUPPLIER_INVOICE_SCHEMAS } from './supplier-invoices.openapi';

/**
 * The mirrors of one record's shape, held to each other (docs/adding-a-field.md): a field added to
 * one and not the other fails here, naming both files and the field. Business rules stay code.
 */
const JSON_FILE = 'SUPPLIER_INVOICE_JSON (repository/supplier-invoices.queries.ts)';
const SCHEMA_FILE = 'SUPPLIER_INVOICE_SCHEMAS (supplier-invoices.openapi.ts)';

/** `[where it is, where it is missing, field]` for every field one side has and the other lacks. */
function disagreements(left: [string, string[]], right: [string, string[]]): string[] {
  const [leftName, leftFields] = left;
  const [rightName, rightFields] = right;
  return [
    ...leftFields.filter((f) => !rightFields.includes(f)).map((f) => `${f}: in ${leftName}, missing from ${rightName}`),
    ...rightFields.filter((f) => !leftFields.includes(f)).map((f) => `${f}: in ${rightName}, missing from ${leftName}`),
  ];
}

const propertiesOf = (schema: string) => Object.keys((SUPPLIER_INVOICE_SCHEMAS[schema] as { properties: Record<string, unknown> }).properties).sort();
const validatedFieldsOf = (dto: new () => object) =>
  [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName))].sort();

/** Written by the use case apart from the column map: the status and hold rules, the amounts, lines and supplier, the key. */
const WRITTEN_APART = ['status', 'hold', 'vatAmount', 'invoiceLines', 'supplier', 'referenceNumber'];

describe('supplier invoice shape: the SQL record, the OpenAPI schemas, the DTO and the PUT column map agree', () => {
  let t: SupplierInvoicesTestApp;

  beforeAll(async () => {
    t = await startSupplierInvoicesTestApp();
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('the record the database builds has exactly the properties of the SupplierInvoice schema, and its parts those of theirs', async () => {
    const headers = { ...(await t.auth.headers({ company: '1000001' })), 'content-type': 'application/json' };
    const created = await t.http.request('/v1/supplierInvoice', {
      method: 'POST',
      headers,
      body: JSON.stringify({ supplier: { number: 'S-1', name: 'Shape AS' }, invoiceLines: [{ description: 'x', quantity: 1, unitPrice: 2 }] }),
    });
    expect(created.status).toBe(201);
    const record = (await created.json()) as Record<string, unknown> & { supplier: object; invoiceLines: object[] };
    expect(
      [
        ...disagreements([JSON_FILE, Object.keys(record).sort()], [`SupplierInvoice of ${SCHEMA_FILE}`, propertiesOf('SupplierInvoice')]),
        ...disagreements([`${JSON_FILE} supplier`, Object.keys(record.supplier).sort()], [`SupplierInvoiceSupplier of ${SCHEMA_FILE}`, propertiesOf('SupplierInvoiceSupplier')]),
        ...disagreements([`${JSON_FILE} invoiceLines`, Object.keys(record.invoiceLines[0]).sort()], [`SupplierInvoiceLine of ${SCHEMA_FILE}`, propertiesOf('SupplierInvoiceLine')]),
      ],
    ).toEqual([]);
    const listed = await t.http.request('/v1/supplierInvoice', { headers });
    const [item] = (await listed.json()) as Array<Record<string, unknown>>;
    expect(disagreements([`${JSON_FILE} in the list`, Object.keys(item).filter((k) => k !== 'metadata').sort()], [`SupplierInvoice of ${SCHEMA_FILE}`, propertiesOf('SupplierInvoice')])).toEqual([]);
  });

  it('the write schemas document exactly the fields the DTO validates', () => {
    expect(
      [
        ...disagreements(['CreateSupplierInvoiceDto (dto/supplier-invoice-write.dto.ts)', validatedFieldsOf(CreateSupplierInvoiceDto)], [`SupplierInvoiceCreate of ${SCHEMA_FILE}`, propertiesOf('SupplierInvoiceCreate')]),
        ...disagreements(['SupplierInvoiceCreate', propertiesOf('SupplierInvoiceCreate')], ['SupplierInvoiceUpdate', propertiesOf('SupplierInvoiceUpdate')]),
      ],
    ).toEqual([]);
  });

  it('every field a PUT may send is in WRITABLE_COLUMNS (repository/invoice-changes.ts) or written apart by the rules', () => {
    const mapped = WRITABLE_COLUMNS.map((c) => c.field as string);
    const missing = validatedFieldsOf(CreateSupplierInvoiceDto).filter((f) => !mapped.includes(f) && !WRITTEN_APART.includes(f));
    expect(missing.map((f) => `${f}: validated by the DTO, missing from WRITABLE_COLUMNS (repository/invoice-changes.ts)`)).toEqual([]);
    expect(mapped.filter((f) => WRITTEN_APART.includes(f))).toEqual([]);
  });
});
