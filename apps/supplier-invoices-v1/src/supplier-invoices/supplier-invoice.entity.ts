import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

export const DOCUMENT_TYPES = ['Invoice', 'CreditAdj', 'DebitAdj', 'Prepayment'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const INVOICE_STATUSES = ['Hold', 'Balanced', 'Open', 'Closed'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/**
 * The tables as TypeORM sees them. They describe the schema (and let the drift test compare it
 * with the migrations); reads and writes use hand-written SQL (repository/supplier-invoices.queries.ts).
 */
@Entity({ name: 'supplier_invoices' })
@Index('supplier_invoices_company_reference_key', ['companyId', 'referenceNumber'], { unique: true })
// The list's covering indexes (INCLUDE columns, which TypeORM cannot describe): defined by
// migration 1765300000001, so the drift check leaves them alone.
@Index('supplier_invoices_company_order_idx', { synchronize: false })
@Index('supplier_invoices_company_status_idx', { synchronize: false })
@Index('supplier_invoices_company_supplier_idx', { synchronize: false })
@Index('supplier_invoices_company_type_idx', { synchronize: false })
@Index('supplier_invoices_company_modified_idx', { synchronize: false })
@Check('supplier_invoices_document_type_check', `document_type IN ('Invoice', 'CreditAdj', 'DebitAdj', 'Prepayment')`)
@Check('supplier_invoices_status_check', `status IN ('Hold', 'Balanced', 'Open', 'Closed')`)
export class SupplierInvoiceEntity {
  @PrimaryGeneratedColumn('identity', { name: 'internal_id', type: 'bigint', generatedIdentity: 'ALWAYS' })
  internalId: string;

  @Column({ name: 'company_id', type: 'varchar', length: 64 })
  companyId: string;

  @Column({ name: 'reference_number', type: 'varchar', length: 15 })
  referenceNumber: string;

  @Column({ name: 'document_type', type: 'varchar', length: 20 })
  documentType: DocumentType;

  @Column({ name: 'supplier_number', type: 'varchar', length: 30 })
  supplierNumber: string;

  @Column({ name: 'supplier_name', type: 'varchar', length: 255, nullable: true })
  supplierName: string | null;

  @Column({ name: 'supplier_reference', type: 'varchar', length: 40, nullable: true })
  supplierReference: string | null;

  @Column({ name: 'document_date', type: 'date' })
  documentDate: string;

  @Column({ name: 'due_date', type: 'date', nullable: true })
  dueDate: string | null;

  @Column({ type: 'varchar', length: 20 })
  status: InvoiceStatus;

  @Column({ name: 'currency_id', type: 'varchar', length: 3, nullable: true })
  currencyId: string | null;

  @Column({ type: 'numeric', precision: 19, scale: 2 })
  amount: string;

  @Column({ name: 'vat_amount', type: 'numeric', precision: 19, scale: 2 })
  vatAmount: string;

  @Column({ type: 'numeric', precision: 19, scale: 2 })
  balance: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  description: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_modified_at', type: 'timestamptz' })
  lastModifiedAt: Date;

  @Column({ type: 'bigint', default: () => `nextval('row_version_seq')` })
  version: string;
}

@Entity({ name: 'supplier_invoice_lines' })
export class SupplierInvoiceLineEntity {
  @PrimaryColumn({ name: 'invoice_id', type: 'bigint', primaryKeyConstraintName: 'supplier_invoice_lines_pkey' })
  invoiceId: string;

  @PrimaryColumn({ name: 'line_number', type: 'integer', primaryKeyConstraintName: 'supplier_invoice_lines_pkey' })
  lineNumber: number;

  @ManyToOne(() => SupplierInvoiceEntity, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'invoice_id',
    referencedColumnName: 'internalId',
    foreignKeyConstraintName: 'supplier_invoice_lines_invoice_fkey',
  })
  invoice?: SupplierInvoiceEntity;

  @Column({ type: 'varchar', length: 255, nullable: true })
  description: string | null;

  @Column({ type: 'numeric', precision: 18, scale: 6 })
  quantity: string;

  @Column({ name: 'unit_price', type: 'numeric', precision: 19, scale: 6 })
  unitPrice: string;

  @Column({ type: 'numeric', precision: 19, scale: 2 })
  amount: string;
}

@Entity({ name: 'supplier_invoice_number_counters' })
export class SupplierInvoiceNumberCounterEntity {
  @Column({ name: 'company_id', type: 'varchar', length: 64, primary: true })
  companyId: string;

  @Column({ name: 'last_value', type: 'bigint' })
  lastValue: string;
}

/** An attachment of an invoice, as announced by the attachments service (latest revision). */
@Entity({ name: 'supplier_invoice_attachments' })
@Index('supplier_invoice_attachments_invoice_idx', ['companyId', 'referenceNumber'])
export class SupplierInvoiceAttachmentEntity {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'supplier_invoice_attachments_pkey' })
  companyId: string;

  @PrimaryColumn({ name: 'attachment_id', type: 'uuid', primaryKeyConstraintName: 'supplier_invoice_attachments_pkey' })
  attachmentId: string;

  /** Arrival order (one invoice's attachment events arrive in upload order): the list order. */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' })
  position: string;

  @Column({ name: 'reference_number', type: 'varchar', length: 15 })
  referenceNumber: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'integer' })
  revision: number;

  @Column({ name: 'attached_at', type: 'timestamptz' })
  attachedAt: Date;
}
