import { recordFields, schemaFields, shapeDisagreements, validatedFields } from '@erp/testing';
import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';
import { CreateSupplierInvoiceDto } from './dto/supplier-invoice-write.dto';
import { WRITABLE_COLUMNS } from './repository/invoice-changes';
import { SUPPLIER_INVOICE_SCHEMAS } from './supplier-invoices.openapi';

/**
 * The mirrors of the supplier invoice's shape, held to each other (docs/adding-a-field.md): a
 * field added to one and not the other fails here, naming both files and the field. Business
 * rules stay code.
 */
const JSON_FILE = 'SUPPLIER_INVOICE_JSON (repository/supplier-invoices.queries.ts)';
const schema = (name: string) => ({ name: `${name} of SUPPLIER_INVOICE_SCHEMAS (supplier-invoices.openapi.ts)`, fields: schemaFields(SUPPLIER_INVOICE_SCHEMAS, name) });

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
    const [item] = (await (await t.http.request('/v1/supplierInvoice', { headers })).json()) as object[];
    expect([
      ...shapeDisagreements({ name: JSON_FILE, fields: recordFields(record) }, schema('SupplierInvoice')),
      ...shapeDisagreements({ name: `${JSON_FILE} in the list`, fields: recordFields(item) }, schema('SupplierInvoice')),
      ...shapeDisagreements({ name: `${JSON_FILE} supplier`, fields: recordFields(record.supplier) }, schema('SupplierInvoiceSupplier')),
      ...shapeDisagreements({ name: `${JSON_FILE} invoiceLines`, fields: recordFields(record.invoiceLines[0]) }, schema('SupplierInvoiceLine')),
    ]).toEqual([]);
  });

  it('the write schemas document exactly the fields the DTO validates', () => {
    const dto = { name: 'CreateSupplierInvoiceDto (dto/supplier-invoice-write.dto.ts)', fields: validatedFields(CreateSupplierInvoiceDto) };
    expect([...shapeDisagreements(dto, schema('SupplierInvoiceCreate')), ...shapeDisagreements(schema('SupplierInvoiceCreate'), schema('SupplierInvoiceUpdate'))]).toEqual([]);
  });

  it('every field a PUT may send is in WRITABLE_COLUMNS (repository/invoice-changes.ts) or written apart by the rules', () => {
    const mapped = WRITABLE_COLUMNS.map((c) => c.field as string);
    const missing = validatedFields(CreateSupplierInvoiceDto).filter((f) => !mapped.includes(f) && !WRITTEN_APART.includes(f));
    expect(missing.map((f) => `${f}: validated by the DTO, missing from WRITABLE_COLUMNS (repository/invoice-changes.ts)`)).toEqual([]);
    expect(mapped.filter((f) => WRITTEN_APART.includes(f))).toEqual([]);
  });
});
