import { DataSource } from 'typeorm';
import { namedQuery } from './named-query';

describe('namedQuery', () => {
  // A DataSource that is never initialized: its driver binds parameters without a connection.
  const db = new DataSource({ type: 'postgres' });
  const sent: Array<{ text: string; values: unknown[] }> = [];
  const manager = {
    connection: db,
    queryRunner: {
      query: async (text: string, values: unknown[]) => {
        sent.push({ text, values });
        return { records: [{ ok: 1 }] };
      },
    },
  };

  beforeEach(() => sent.splice(0));

  it('binds each name once, in order of first use, and keeps casts', async () => {
    const rows = await namedQuery(manager as never, `SELECT :b::jsonb, :a::int[], :b, '{"x":null}'::jsonb`, { a: [1, 2], b: '{}' });
    expect(rows).toEqual([{ ok: 1 }]);
    expect(sent).toEqual([{ text: `SELECT $1::jsonb, $2::int[], $1, '{"x":null}'::jsonb`, values: ['{}', [1, 2]] }]);
  });

  it('leaves a name that is not a parameter as written', async () => {
    await namedQuery(manager as never, 'SELECT :missing', { other: 1 });
    expect(sent[0]).toEqual({ text: 'SELECT :missing', values: [] });
  });
});
