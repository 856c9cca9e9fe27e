import { Transform } from 'class-transformer';
import { toInt } from '@erp/bootstrap';
import { IsInt, Min } from 'class-validator';
import { KafkaServiceConfig } from '@erp/messaging';


export class SalesOrdersConfig extends KafkaServiceConfig {
  override PORT = 3105;

  /** An order may carry thousands of lines in one POST or PATCH (about 200 bytes each). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  override BODY_LIMIT_BYTES = 8 * 1024 * 1024;
}
