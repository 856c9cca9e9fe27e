import { COMPANY_SETTING } from './tenant-role';

/**
 * A view's rule as PostgreSQL stores it (`pg_rewrite.ev_action`, a `pg_node_tree`): nodes
 * `{TYPE :field value ...}`, lists `(...)`, atoms, `<>` for none, a datum's bytes `[ ... ]`.
 * Read as a tree, not as printed SQL: the printed form (`pg_get_viewdef`) changes between
 * PostgreSQL versions (parentheses, casts, table-qualified names), the tree's fields this file
 * reads have not.
 */
export type RuleValue = RuleNode | RuleValue[] | string | null | { bytes: number[] };
export interface RuleNode {
  type: string;
  [field: string]: RuleValue;
}

function tokens(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const ch = text[i] as string;
    if (/\s/.test(ch)) i++;
    else if ('{}()[]'.includes(ch)) out.push(text[i++] as string);
    else if (ch === '"') {
      let token = '';
      for (i++; i < text.length && text[i] !== '"'; i++) token += text[i] === '\\' ? text[++i] : text[i];
      out.push(token);
      i++;
    } else {
      let token = '';
      for (; i < text.length && !/[\s{}()]/.test(text[i] as string); i++) token += text[i] === '\\' ? text[++i] : text[i];
      out.push(token);
    }
  }
  return out;
}

/** The stored rule text as a tree. */
export function parseRule(text: string): RuleValue {
  const list = tokens(text);
  let at = 0;
  const value = (): RuleValue => {
    const token = list[at++];
    if (token === '{') {
      const node: RuleNode = { type: list[at++] as string };
      while (list[at] !== '}') {
        const field = (list[at++] as string).slice(1);
        node[field] = value();
        // A datum: its length (read above as the value), then its bytes.
        if (list[at] === '[') {
          const bytes: number[] = [];
          for (at++; list[at] !== ']'; at++) bytes.push(Number(list[at]));
          at++;
          node[field] = { bytes };
        }
      }
      at++;
      return node;
    }
    if (token === '(') {
      const items: RuleValue[] = [];
      while (list[at] !== ')') items.push(value());
      at++;
      return items;
    }
    return token === '<>' ? null : (token ?? null);
  };
  return value();
}

/** What the catalogue says about a company table, to compare its view's rule with. */
export interface WalledTable {
  oid: string;
  /** attnums of the table's columns, in order. */
  columns: number[];
  /** attnum of `company_id`; null for a table owned through its parent row. */
  companyColumn: number | null;
  /** Single-column foreign keys to tables with a `company_id` (attnums, and the key's `=`). */
  parents: Array<{ oid: string; companyColumn: number; column: number; parentColumn: number; equality: string }>;
  /** oids of `texteq` and `current_setting(text, boolean)`. */
  textEq: string;
  currentSetting: string;
}

const node = (value: RuleValue | undefined, type: string): RuleNode | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) && 'type' in value && value.type === type ? (value as RuleNode) : undefined;
const list = (value: RuleValue | undefined): RuleValue[] => (Array.isArray(value) ? value : []);

function isColumn(value: RuleValue | undefined, varno: number, attno: number, levelsUp: number): boolean {
  const bare = node(value, 'RELABELTYPE')?.['arg'] ?? value;
  const v = node(bare, 'VAR');
  return !!v && v['varno'] === String(varno) && v['varattno'] === String(attno) && v['varlevelsup'] === String(levelsUp);
}

function constBytes(value: RuleValue | undefined, type: string): number[] | undefined {
  const c = node(value, 'CONST');
  const datum = c?.['constvalue'];
  return c && c['consttype'] === type && datum && typeof datum === 'object' && 'bytes' in datum ? (datum.bytes as number[]) : undefined;
}

/** `current_setting('app.company_id', true)`. */
function isBoundCompany(value: RuleValue | undefined, facts: WalledTable): boolean {
  const call = node(value, 'FUNCEXPR');
  if (!call || call['funcid'] !== facts.currentSetting) return false;
  const [name, missingOk] = list(call['args']);
  const text = constBytes(name, '25');
  const flag = constBytes(missingOk, '16');
  // A text datum: a 4-byte varlena header, then the characters.
  return !!text && Buffer.from(text.slice(4)).toString('utf8') === COMPANY_SETTING && !!flag && flag.some((b) => b !== 0);
}

/** `<varno>.company_id = current_setting('app.company_id', true)`, either way round. */
function isOwnCompany(value: RuleValue | undefined, varno: number, companyColumn: number, facts: WalledTable): boolean {
  const op = node(value, 'OPEXPR');
  const args = list(op?.['args']);
  if (!op || op['opfuncid'] !== facts.textEq || args.length !== 2) return false;
  const [a, b] = args;
  return (isColumn(a, varno, companyColumn, 0) && isBoundCompany(b, facts)) || (isColumn(b, varno, companyColumn, 0) && isBoundCompany(a, facts));
}

/** The single relation of a query's FROM: its range table index, if it is `oid`. */
function soleRelation(query: RuleNode, oid: string): number | undefined {
  const from = list(node(query['jointree'], 'FROMEXPR')?.['fromlist']);
  const ref = from.length === 1 ? node(from[0], 'RANGETBLREF') : undefined;
  const index = Number(ref?.['rtindex']);
  const entry = node(list(query['rtable'])[index - 1], 'RANGETBLENTRY');
  return entry && entry['rtekind'] === '0' && entry['relid'] === oid ? index : undefined;
}

/** `EXISTS (SELECT ... FROM parent p WHERE p.key = <varno>.fk AND p.company_id = <bound company>)`. */
function isParentsCompany(value: RuleValue | undefined, varno: number, facts: WalledTable): boolean {
  const link = node(value, 'SUBLINK');
  const sub = node(link?.['subselect'], 'QUERY');
  if (!link || link['subLinkType'] !== '0' || !sub) return false;
  const quals = node(node(sub['jointree'], 'FROMEXPR')?.['quals'], 'BOOLEXPR');
  const args = list(quals?.['args']);
  if (!quals || quals['boolop'] !== 'and' || args.length !== 2) return false;
  return facts.parents.some((parent) => {
    const p = soleRelation(sub, parent.oid);
    if (p === undefined) return false;
    const joins = (v: RuleValue) => {
      const op = node(v, 'OPEXPR');
      const [a, b] = list(op?.['args']);
      return (
        !!op &&
        op['opno'] === parent.equality &&
        ((isColumn(a, p, parent.parentColumn, 0) && isColumn(b, varno, parent.column, 1)) ||
          (isColumn(b, p, parent.parentColumn, 0) && isColumn(a, varno, parent.column, 1)))
      );
    };
    const [x, y] = args as [RuleValue, RuleValue];
    return (joins(x) && isOwnCompany(y, p, parent.companyColumn, facts)) || (joins(y) && isOwnCompany(x, p, parent.companyColumn, facts));
  });
}

/**
 * Whether a view's rule walls the table: it reads that table alone, shows every column of it as
 * it is, in order, and admits only rows of the bound company (its own `company_id`, or its parent
 * row's through a foreign key).
 */
export function ruleWallsTable(action: string, facts: WalledTable): boolean {
  const query = node(list(parseRule(action))[0], 'QUERY');
  const from = query ? soleRelation(query, facts.oid) : undefined;
  if (!query || from === undefined) return false;
  const shown = list(query['targetList'])
    .map((entry) => node(entry, 'TARGETENTRY'))
    .filter((entry) => entry?.['resjunk'] !== 'true');
  const asIs = shown.length === facts.columns.length && shown.every((entry, i) => isColumn(entry?.['expr'], from, facts.columns[i] as number, 0));
  const quals = node(query['jointree'], 'FROMEXPR')?.['quals'];
  const limited = facts.companyColumn !== null ? isOwnCompany(quals, from, facts.companyColumn, facts) : isParentsCompany(quals, from, facts);
  return asIs && limited;
}
