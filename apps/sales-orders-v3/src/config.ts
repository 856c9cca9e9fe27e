import { Transform } from 'class-transformer';
import { IsInt, Min } from 'class-validator';
import { KafkaServiceConfig } from '@erp/messaging';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

export class SalesOrdersConfig extends KafkaServiceConfig {
  override PORT = 3105;

  /** An order may carry thousands of lines in one POST or PATCH (about 200 bytes each). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  override BODY_LIMIT_BYTES = 8 * 1024 * 1024;
}
