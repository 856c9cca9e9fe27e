import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What the guides cite must exist: every inline code span of a guide (docs/**, the READMEs) that
 * names a file or a code symbol is checked against the workspace. Fenced code blocks are left
 * alone (they illustrate, with placeholders); history pages (`*history*`) record what was.
 */

/** Folders never read: installed packages, build and run output. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.data', '.nx', '.git', 'coverage', 'test-output', 'tmp']);
const CODE_FILE = /\.(ts|js|mjs|cjs|json|yaml|yml|sql)$/;
const CITED_FILE = /^[\w@.\-/]+\.(ts|js|mjs|cjs|json|md|sql|yaml|yml|sh)$/;
/** `Name`, `Name.member`, `name(...)`, `@Name(...)`, `new Name(...)`, `Name.member(...)`. */
const CITED_SYMBOL = /^@?(?:new\s+)?([A-Za-z_$][\w$]*)(?:\.([A-Za-z_$][\w$]*))?(\(.*\))?$/;
const JS_GLOBALS = new Set(['require', 'process', 'module', 'JSON', 'Promise', 'Date', 'Number', 'String', 'Object', 'Array', 'Math', 'Buffer', 'fetch', 'setTimeout', 'console', 'globalThis']);

export interface WorkspaceIndex {
  /** Every file, repository-relative with `/`. */
  files: string[];
  /** Names declared in the workspace's code (class, function, const, interface, type, enum) and the files declaring them. */
  declared: Map<string, string[]>;
  /** Names the workspace's code imports from npm packages (Nest, TypeORM, ...): cited as the packages' own. */
  imported: Set<string>;
  /** Every identifier-like word of the code, configuration and data files (schemas, reference documents, SQL). */
  words: Set<string>;
  /** The text of a code file. */
  text(file: string): string;
}

export interface CitationProblem {
  doc: string;
  citation: string;
  problem: string;
}

export interface CitationOptions {
  /** Names of npm packages' APIs a guide may cite without the code importing them (checked elsewhere). */
  externalNames?: ReadonlySet<string>;
  /** File names only a build or a run writes (`main.js` in `dist/`). */
  generatedFiles?: ReadonlySet<string>;
}

function walk(root: string, dir = '', skipped: ReadonlySet<string> = SKIPPED_DIRS): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : walk(root, relative, skipped);
    return entry.isFile() ? [relative] : [];
  });
}

export function indexWorkspace(root: string): WorkspaceIndex {
  const files = walk(root);
  // Tests are left out: a name that only a test still mentions (this rule's own test names removed ones) is gone.
  const code = files.filter((f) => CODE_FILE.test(f) && !f.endsWith('package-lock.json') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(f));
  const texts = new Map(code.map((f) => [f, readFileSync(path.join(root, f), 'utf8')]));
  const declared = new Map<string, string[]>();
  const imported = new Set<string>();
  const words = new Set<string>();
  for (const [file, text] of texts) {
    for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) words.add(m[0]);
    if (!/\.(ts|js|mjs|cjs)$/.test(file)) continue;
    for (const m of text.matchAll(/\b(?:class|function|const|let|var|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/g)) {
      declared.set(m[1], [...(declared.get(m[1]) ?? []), file]);
    }
    for (const m of text.matchAll(/import\s+(?:type\s+)?(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s+as\s+(\w+))?\s*from\s+'([^'.][^']*)'/g)) {
      if (m[4].startsWith('@erp/')) continue;
      for (const name of [m[1], m[3], ...(m[2] ?? '').split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop())]) {
        if (name) imported.add(name);
      }
    }
  }
  return { files, declared, imported, words, text: (file) => texts.get(file) ?? '' };
}

/** The guides: every Markdown page under docs/ except history, the root README and each project's README. */
export function guidesOf(index: WorkspaceIndex): string[] {
  return index.files.filter((f) => (/^docs\/.*\.md$/.test(f) || /^((apps|libs|tools)\/[^/]+\/)?README\.md$/.test(f)) && !/history/.test(f));
}

/** The inline code spans of a Markdown text, outside fenced code blocks. */
export function inlineCodeSpans(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim());
}

function fileProblem(index: WorkspaceIndex, doc: string, cited: string, options: CitationOptions): string | undefined {
  const file = cited.replace(/[#:].*$/, '');
  if (options.generatedFiles?.has(file)) return undefined;
  const fileSet = new Set(index.files);
  const project = doc.split('/').slice(0, 2).join('/');
  const candidates = [file, path.posix.normalize(path.posix.join(path.posix.dirname(doc), file)), `${project}/${file}`];
  if (candidates.some((c) => fileSet.has(c))) return undefined;
  // A name (`order-records.ts`), a path inside a folder the text is about (`repository/x.ts`) or a suffix (`.main.ts`).
  const suffix = file.startsWith('.') || !file.includes('/') ? file : `/${file}`;
  const found = file.includes('/') || file.startsWith('.') ? index.files.some((f) => f.endsWith(suffix)) : index.files.some((f) => f.endsWith(`/${file}`) || f === file);
  return found ? undefined : 'no such file in the workspace';
}

function symbolProblem(index: WorkspaceIndex, cited: string, options: CitationOptions): string | undefined {
  const match = CITED_SYMBOL.exec(cited);
  if (!match) return undefined;
  const [, name, member, call] = match;
  if (JS_GLOBALS.has(name) || index.imported.has(name) || options.externalNames?.has(name)) return undefined;
  const declaredIn = index.declared.get(name);
  // SQL (`CAST(...)`) and the documents' constants (`SALESORDER_CREATED`) are not the code's symbols.
  if (/^[A-Z0-9_]+$/.test(name) && !declaredIn && (call || !member)) return undefined;
  // A bare word is a symbol only when it is shaped like one (`PriceOrderLines`, `namedQuery`).
  if (!member && !call && !(/^[A-Z][a-z]/.test(name) || /^[a-z][a-z0-9]*[A-Z]/.test(name))) return undefined;
  if (/^[A-Z]/.test(name) && declaredIn && member) {
    // `OrderChange.record(...)`: the member must be in the file that declares the class or object.
    const inDeclaration = declaredIn.some((file) => new RegExp(`\\b${member.replace(/\$/g, '\\$')}\\b`).test(index.text(file)));
    return inDeclaration ? undefined : `${name} (${declaredIn[0]}) has no member ${member}`;
  }
  // A receiver in lower case is a variable or a JSON path (`context.getManager()`, `customer.gln`).
  if (!(member && /^[a-z]/.test(name)) && !index.words.has(name)) return `${name} is not in the workspace's code`;
  if (member && !index.words.has(member)) return `${member} is not in the workspace's code`;
  return undefined;
}

/** Every citation of the guides that names a file or symbol the workspace does not have. */
export function citationProblems(index: WorkspaceIndex, readDoc: (doc: string) => string, docs: string[], options: CitationOptions = {}): CitationProblem[] {
  return docs.flatMap((doc) =>
    inlineCodeSpans(readDoc(doc)).flatMap((citation) => {
      const file = citation.replace(/[#:].*$/, '');
      const isFile = CITED_FILE.test(file) && !file.startsWith('/') && !/[*<{]/.test(file);
      const problem = isFile ? fileProblem(index, doc, citation, options) : symbolProblem(index, citation, options);
      return problem ? [{ doc, citation, problem }] : [];
    }),
  );
}

/** Whether an npm package's type declarations mention a name (for the names guides cite from packages). */
export function packageDeclares(root: string, packageName: string, name: string): boolean {
  const dir = path.join(root, 'node_modules', packageName);
  if (!existsSync(dir)) return false;
  const declarations = walk(dir, '', new Set(['node_modules'])).filter((f) => f.endsWith('.d.ts'));
  return declarations.some((f) => new RegExp(`\\b${name}\\b`).test(readFileSync(path.join(dir, f), 'utf8')));
}
