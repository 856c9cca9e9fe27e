import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A small entity the lib's integration tests migrate, query and check for drift. */
@Entity('widgets')
export class Widget {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** The same table with one more column, which no migration adds. */
@Entity('widgets')
export class WidgetWithColour extends Widget {
  @Column({ type: 'varchar', length: 30, nullable: true })
  colour: string | null;
}
