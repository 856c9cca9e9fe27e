import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateWidgets1700000000001 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "widgets" (
        "id" uuid NOT NULL DEFAULT gen_random_uuid(),
        "company_id" integer NOT NULL,
        "name" character varying(200) NOT NULL,
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "widgets_pkey" PRIMARY KEY ("id")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "widgets"`);
  }
}
