import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ownersOf, parseCodeowners } from './codeowners';
import { WORKSPACE_ROOT, workspaceProjects } from './workspace-projects';

/** Each scope's team; scope:shared (libraries, tools, the end-to-end suites) is the platform team's. */
const TEAM_OF_SCOPE: Record<string, string> = {
  'scope:gateway': '@erp/gateway-team',
  'scope:customers': '@erp/customers-team',
  'scope:supplier-invoices': '@erp/supplier-invoices-team',
  'scope:attachments': '@erp/attachments-team',
  'scope:sales-orders': '@erp/sales-orders-team',
  'scope:webhooks': '@erp/webhooks-team',
  'scope:shared': '@erp/platform-team',
  'scope:bench': '@erp/platform-team',
};

describe('CODEOWNERS', () => {
  const rules = parseCodeowners(readFileSync(path.join(WORKSPACE_ROOT, '.github', 'CODEOWNERS'), 'utf8'));
  const projects = workspaceProjects();

  it('finds the projects and the rules', () => {
    expect(projects.map((p) => p.name)).toEqual(expect.arrayContaining(['customers-v1', 'sales-orders-queries', 'testing']));
    expect(rules.length).toBeGreaterThan(5);
  });

  it("gives every project exactly the team of its scope tag, so a team's libraries are its own", () => {
    const mismatches = projects.flatMap((project) => {
      const scopes = project.tags.filter((tag) => tag.startsWith('scope:'));
      const expected = scopes.length === 1 ? [TEAM_OF_SCOPE[scopes[0] as string]] : [`one known scope tag, not ${scopes.join(',')}`];
      const actual = ownersOf(rules, project.root);
      return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [{ project: project.root, expected, actual }];
    });
    expect(mismatches).toEqual([]);
  });

  it('applies the last matching line, as GitHub does', () => {
    const parsed = parseCodeowners('* @a\n/libs/ @b\n/libs/x/ @c # comment\n');
    expect(ownersOf(parsed, 'libs/x')).toEqual(['@c']);
    expect(ownersOf(parsed, 'libs/xy')).toEqual(['@b']);
    expect(ownersOf(parsed, 'apps/y')).toEqual(['@a']);
  });
});
