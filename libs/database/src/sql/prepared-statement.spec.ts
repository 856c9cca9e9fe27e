import { prepared, PREPARED_MARK, preparedStatementName } from './prepared-statement';

describe('prepared statements: the mark and the name', () => {
  const text = 'SELECT id FROM things WHERE company_id = $1';

  it('marks a statement once, with a comment the server ignores', () => {
    const marked = prepared(text);
    expect(marked).toBe(`${PREPARED_MARK}\n${text}`);
    expect(prepared(marked)).toBe(marked);
  });

  it('names a marked statement by its text: the same text the same name, another text another', () => {
    const name = preparedStatementName(prepared(text));
    expect(name).toMatch(/^erp_[A-Za-z0-9_-]{27}$/);
    // PostgreSQL truncates identifiers past 63 bytes: two long names could otherwise meet.
    expect(name!.length).toBeLessThanOrEqual(63);
    expect(preparedStatementName(`${PREPARED_MARK}\n${text}`)).toBe(name);
    expect(preparedStatementName(prepared(`${text} AND status = $2`))).not.toBe(name);
  });

  it('gives no name to a statement that is not marked, even one that holds the mark further in', () => {
    expect(preparedStatementName(text)).toBeUndefined();
    expect(preparedStatementName(`SELECT 1 ${PREPARED_MARK}`)).toBeUndefined();
  });
});
