import { seedFetch } from './seed-requests';

/**
 * Demo supplier invoices with lines, each with a small attachment, created through the public API
 * like every other seed. The attachments service learns each invoice from its created event, so
 * an upload right after the POST may answer 404 for a moment: it is retried until the invoice
 * has arrived there.
 */

export interface SeedSupplierInvoicesOptions {
  baseUrl: string;
  /** v1 headers (token, ipp-company-id, ipp-application-type). */
  headers: Record<string, string>;
  /** Invoices to create (default 8). */
  invoices?: number;
}

const SUPPLIERS: Array<[string, string, string]> = [
  ['S-1001', 'Fjord Timber AS', 'NOK'],
  ['S-1002', 'Baltic Steel AB', 'SEK'],
  ['S-1003', 'Aurora Office Supplies Oy', 'EUR'],
  ['S-1004', 'Harbor Logistics ApS', 'DKK'],
];

const LINES: Array<[string, number, string]> = [
  ['Consulting hours', 7.5, '1150.00'],
  ['Pine planks 48x98, metre', 240, '3.85'],
  ['Freight, pallet', 2, '640.50'],
  ['Office chairs', 4, '1299.00'],
  ['Licence, annual', 1, '8900.00'],
  ['Hex bolts M8x40, box', 12, '42.10'],
];

const TYPES = ['Invoice', 'Invoice', 'Invoice', 'CreditAdj', 'Invoice', 'DebitAdj', 'Invoice', 'Prepayment'];
const STATUSES = ['Open', 'Balanced', 'Hold', 'Open', 'Closed', 'Open', 'Balanced', 'Open'];

export function demoSupplierInvoices(count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => {
    const [number, name, currency] = SUPPLIERS[i % SUPPLIERS.length];
    const lines = Array.from({ length: 1 + (i % 4) }, (_, j) => {
      const [description, quantity, unitPrice] = LINES[(i + j) % LINES.length];
      return { description, quantity, unitPrice };
    });
    const day = String(1 + (i % 27)).padStart(2, '0');
    return {
      documentType: TYPES[i % TYPES.length],
      supplier: { number, name },
      supplierReference: `INV-2026-${String(100 + i)}`,
      date: `2026-03-${day}`,
      dueDate: `2026-04-${day}`,
      status: STATUSES[i % STATUSES.length],
      currencyId: currency,
      vatAmount: (i * 12.5).toFixed(2),
      description: `Demo invoice ${i + 1} from ${name}`,
      invoiceLines: lines,
    };
  });
}

/** A small PDF-looking file for an invoice (real PDF syntax, one page of text). */
function demoPdf(title: string): Buffer {
  const text = title.replace(/[()\\]/g, '');
  return Buffer.from(
    `%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n` +
      `2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n` +
      `3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >> endobj\n` +
      `4 0 obj << /Length ${text.length + 30} >> stream\nBT /F1 18 Tf 72 760 Td (${text}) Tj ET\nendstream endobj\n` +
      `trailer << /Root 1 0 R >>\n%%EOF\n`,
    'latin1',
  );
}

export async function seedSupplierInvoices(options: SeedSupplierInvoicesOptions): Promise<number> {
  const { baseUrl, headers } = options;
  const json = { ...headers, 'content-type': 'application/json', accept: 'application/json' };
  let created = 0;
  for (const invoice of demoSupplierInvoices(options.invoices ?? 8)) {
    const response = await seedFetch(`${baseUrl}/v1/supplierInvoice`, { method: 'POST', headers: json, body: JSON.stringify(invoice) });
    if (response.status !== 201) throw new Error(`Seeding a supplier invoice failed with ${response.status}: ${await response.text()}`);
    const { referenceNumber } = (await response.json()) as { referenceNumber: string };
    // Right after the invoice: the attachments service asks supplier-invoices-v1 about an invoice its events have not brought yet.
    await uploadScan(baseUrl, headers, referenceNumber);
    created++;
  }
  return created;
}

async function uploadScan(baseUrl: string, headers: Record<string, string>, referenceNumber: string): Promise<void> {
  const { 'content-type': _json, ...uploadHeaders } = headers;
  const form = new FormData();
  form.append('file', new Blob([demoPdf(`Supplier invoice ${referenceNumber}`)], { type: 'application/pdf' }), `invoice-${referenceNumber}.pdf`);
  const response = await seedFetch(`${baseUrl}/v1/supplierInvoice/${referenceNumber}/Attachment`, { method: 'POST', headers: uploadHeaders, body: form });
  if (response.status !== 201) throw new Error(`Seeding an attachment of ${referenceNumber} failed with ${response.status}: ${await response.text()}`);
}
