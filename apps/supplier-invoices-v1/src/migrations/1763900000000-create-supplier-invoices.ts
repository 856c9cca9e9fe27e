import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Supplier invoices of each company, their lines, and the attachments known from attachment
 * events. `internal_id` gives the stable, total order of v1 lists. `version` comes from one
 * sequence, so an ETag never repeats for a different state. Amounts are `numeric`: exact decimals,
 * never floats. Every index leads with company_id: every query is scoped.
 */
export class CreateSupplierInvoices1763900000000 implements MigrationInterface {
  name = 'CreateSupplierInvoices1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE row_version_seq`);
    await q.query(`
      CREATE TABLE supplier_invoices (
        internal_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id varchar(64) NOT NULL,
        reference_number varchar(15) NOT NULL,
        document_type varchar(20) NOT NULL,
        supplier_number varchar(30) NOT NULL,
        supplier_name varchar(255),
        supplier_reference varchar(40),
        document_date date NOT NULL,
        due_date date,
        status varchar(20) NOT NULL,
        currency_id varchar(3),
        amount numeric(19,2) NOT NULL,
        vat_amount numeric(19,2) NOT NULL,
        balance numeric(19,2) NOT NULL,
        description varchar(255),
        created_at timestamptz NOT NULL,
        last_modified_at timestamptz NOT NULL,
        version bigint NOT NULL DEFAULT nextval('row_version_seq'),
        CONSTRAINT supplier_invoices_document_type_check CHECK (document_type IN ('Invoice', 'CreditAdj', 'DebitAdj', 'Prepayment')),
        CONSTRAINT supplier_invoices_status_check CHECK (status IN ('Hold', 'Balanced', 'Open', 'Closed'))
      )`);
    await q.query(`CREATE UNIQUE INDEX supplier_invoices_company_reference_key ON supplier_invoices (company_id, reference_number)`);
    await q.query(`CREATE INDEX supplier_invoices_company_order_idx ON supplier_invoices (company_id, internal_id)`);
    await q.query(`CREATE INDEX supplier_invoices_company_status_idx ON supplier_invoices (company_id, status, internal_id)`);
    await q.query(`CREATE INDEX supplier_invoices_company_supplier_idx ON supplier_invoices (company_id, supplier_number, internal_id)`);
    await q.query(`CREATE INDEX supplier_invoices_company_type_idx ON supplier_invoices (company_id, document_type, internal_id)`);
    await q.query(`CREATE INDEX supplier_invoices_company_modified_idx ON supplier_invoices (company_id, last_modified_at)`);
    await q.query(`
      CREATE TABLE supplier_invoice_lines (
        invoice_id bigint NOT NULL,
        line_number integer NOT NULL,
        description varchar(255),
        quantity numeric(18,6) NOT NULL,
        unit_price numeric(19,6) NOT NULL,
        amount numeric(19,2) NOT NULL,
        CONSTRAINT supplier_invoice_lines_pkey PRIMARY KEY (invoice_id, line_number),
        CONSTRAINT supplier_invoice_lines_invoice_fkey FOREIGN KEY (invoice_id)
          REFERENCES supplier_invoices (internal_id) ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE supplier_invoice_number_counters (
        company_id varchar(64) PRIMARY KEY,
        last_value bigint NOT NULL
      )`);
    // Learned from ATTACHMENT_CREATED events; keyed by the attachment id, so a new revision of
    // the same attachment updates its row. No foreign key: the event names the invoice by its
    // reference number, which never changes. `position` is the order the attachments arrived in
    // (one invoice's events arrive in upload order), which is the order the API lists them in.
    await q.query(`
      CREATE TABLE supplier_invoice_attachments (
        position bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        company_id varchar(64) NOT NULL,
        attachment_id uuid NOT NULL,
        reference_number varchar(15) NOT NULL,
        name varchar(255) NOT NULL,
        revision integer NOT NULL,
        attached_at timestamptz NOT NULL,
        CONSTRAINT supplier_invoice_attachments_pkey PRIMARY KEY (company_id, attachment_id)
      )`);
    await q.query(
      `CREATE INDEX supplier_invoice_attachments_invoice_idx ON supplier_invoice_attachments (company_id, reference_number)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE supplier_invoice_attachments`);
    await q.query(`DROP TABLE supplier_invoice_number_counters`);
    await q.query(`DROP TABLE supplier_invoice_lines`);
    await q.query(`DROP TABLE supplier_invoices`);
    await q.query(`DROP SEQUENCE row_version_seq`);
  }
}
