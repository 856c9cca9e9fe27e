import { Transform } from 'class-transformer';
import { toInt, UrlList } from '@erp/bootstrap';
import { ArrayNotEmpty, IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { InternalApiServiceConfig } from '@erp/internal-api';

const MIB = 1024 * 1024;

/**
 * ServiceConfig, the Kafka variables (KAFKA_BROKERS, ...; see libs/messaging), the internal API's
 * (INTERNAL_API_SECRET, ...: it reads customers-v1's and supplier-invoices-v1's) and its own.
 */
export class AttachmentsConfig extends InternalApiServiceConfig {
  override PORT = 3103;

  /**
   * The owners of the records attachments hang on (each a Service URL, or its replicas): asked
   * whether a record exists when its created event has not arrived yet, and told of each upload
   * to a supplier invoice (docs/cross-service-reads.md).
   */
  @ArrayNotEmpty({ message: 'CUSTOMERS_URL must name customers-v1 (a URL, or its replicas comma-separated)' })
  @UrlList()
  CUSTOMERS_URL!: string[];

  @ArrayNotEmpty({ message: 'SUPPLIER_INVOICES_URL must name supplier-invoices-v1 (a URL, or its replicas comma-separated)' })
  @UrlList()
  SUPPLIER_INVOICES_URL!: string[];

  /** Largest file accepted, in bytes; a larger upload is refused with 413 while it streams. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(5 * 1024 * MIB)
  ATTACHMENT_MAX_BYTES = 100 * MIB;

  /** `filesystem` (embedded default) or `s3` (MinIO, S3 and compatible stores). */
  @IsIn(['filesystem', 's3'])
  STORAGE_DRIVER: 'filesystem' | 's3' = 'filesystem';

  /** Root directory of the filesystem driver (relative paths from the working directory). */
  @IsString()
  @MinLength(1)
  STORAGE_DIR = '.data/attachments';

  /** S3 endpoint URL for MinIO or another compatible store; unset for AWS S3 itself. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  S3_ENDPOINT?: string;

  @IsString()
  S3_REGION = 'us-east-1';

  @ValidateIf((c: AttachmentsConfig) => c.STORAGE_DRIVER === 's3')
  @IsString()
  @MinLength(3)
  S3_BUCKET?: string;

  /** Static credentials; when unset the AWS default chain is used (IRSA, instance profile, env). */
  @IsOptional() @IsString() S3_ACCESS_KEY_ID?: string;
  @IsOptional() @IsString() S3_SECRET_ACCESS_KEY?: string;

  /** Path-style URLs (`endpoint/bucket/key`), which MinIO needs. */
  @IsIn(['true', 'false'])
  S3_FORCE_PATH_STYLE = 'false';

  /** Size of each multipart-upload part; also the most an upload buffers in memory. */
  @Transform(toInt)
  @IsInt()
  @Min(5 * MIB)
  @Max(512 * MIB)
  S3_PART_SIZE_BYTES = 8 * MIB;

  /** Bytes of uploads that never committed are deleted once they are this old. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  ORPHAN_MAX_AGE_MINUTES = 60;

  /** How often the orphan sweeper runs; 0 disables it (tests run it by hand). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  ORPHAN_SWEEP_INTERVAL_SECONDS = 60;
}
