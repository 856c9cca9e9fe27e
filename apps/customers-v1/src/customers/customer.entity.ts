import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CUSTOMER_STATUSES, type CustomerStatus } from '@erp/customers-queries';

export { CUSTOMER_STATUSES, type CustomerStatus };

export interface Address {
  addressLine1?: string | null;
  addressLine2?: string | null;
  addressLine3?: string | null;
  postalCode?: string | null;
  city?: string | null;
  country?: { id: string; name?: string | null } | null;
}

export interface Contact {
  name?: string | null;
  email?: string | null;
  phone1?: string | null;
}

export interface CreditTerms {
  id: string;
  description?: string | null;
}

/**
 * The customers table as TypeORM sees it. It describes the schema (and lets CI detect drift from
 * the migrations); the hot read paths use SQL that builds JSON directly (`@erp/customers-queries`).
 */
@Entity({ name: 'customers' })
@Index('customers_company_number_key', ['companyId', 'number'], { unique: true })
@Index('customers_company_order_idx', ['companyId', 'internalId'])
@Index('customers_company_status_idx', ['companyId', 'status', 'internalId'])
@Index('customers_company_modified_idx', ['companyId', 'lastModifiedAt'])
@Index('customers_company_created_idx', ['companyId', 'createdAt'])
@Index('customers_company_corporate_idx', ['companyId', 'corporateId'])
@Index('customers_company_vat_idx', ['companyId', 'vatRegistrationId'])
@Index('customers_name_trgm_idx', { synchronize: false })
@Check('customers_status_check', `status IN ('Active', 'OnHold', 'CreditHold', 'Inactive', 'OneTime')`)
export class CustomerEntity {
  @PrimaryGeneratedColumn('identity', { name: 'internal_id', type: 'bigint', generatedIdentity: 'ALWAYS' })
  internalId: string;

  @Column({ name: 'company_id', type: 'varchar', length: 64 })
  companyId: string;

  @Column({ type: 'varchar', length: 30 })
  number: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 20 })
  status: CustomerStatus;

  @Column({ name: 'main_address', type: 'jsonb', nullable: true })
  mainAddress: Address | null;

  @Column({ name: 'main_contact', type: 'jsonb', nullable: true })
  mainContact: Contact | null;

  @Column({ name: 'corporate_id', type: 'varchar', length: 50, nullable: true })
  corporateId: string | null;

  @Column({ name: 'vat_registration_id', type: 'varchar', length: 50, nullable: true })
  vatRegistrationId: string | null;

  @Column({ name: 'currency_id', type: 'varchar', length: 3, nullable: true })
  currencyId: string | null;

  @Column({ name: 'credit_terms', type: 'jsonb', nullable: true })
  creditTerms: CreditTerms | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_modified_at', type: 'timestamptz' })
  lastModifiedAt: Date;

  @Column({ type: 'bigint', default: () => `nextval('row_version_seq')` })
  version: string;
}

@Entity({ name: 'customer_number_counters' })
export class CustomerNumberCounterEntity {
  @Column({ name: 'company_id', type: 'varchar', length: 64, primary: true })
  companyId: string;

  @Column({ name: 'last_value', type: 'bigint' })
  lastValue: string;
}
