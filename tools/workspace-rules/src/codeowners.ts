/** One CODEOWNERS rule: a path pattern and its owners. */
export interface OwnerRule {
  pattern: string;
  owners: string[];
}

export function parseCodeowners(text: string): OwnerRule[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line.length > 0)
    .map((line) => {
      const [pattern, ...owners] = line.split(/\s+/);
      return { pattern: pattern as string, owners };
    });
}

/**
 * The owners of a folder (repository-relative, e.g. `apps/customers-v1`), by GitHub's rule: the
 * last matching line wins. Only the two pattern shapes this repository uses: `*` and `/dir/`.
 */
export function ownersOf(rules: readonly OwnerRule[], folder: string): string[] {
  let owners: string[] = [];
  for (const rule of rules) {
    const dir = rule.pattern.replace(/^\//, '').replace(/\/$/, '');
    if (rule.pattern === '*' || folder === dir || folder.startsWith(`${dir}/`)) owners = rule.owners;
  }
  return owners;
}
