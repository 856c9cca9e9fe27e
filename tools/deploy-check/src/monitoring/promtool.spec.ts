import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { parse } from 'yaml';
import { deployedApps, REPO_ROOT } from '../catalog';
import { alertConcerns } from './alert-rules';
import { isAlert } from './rules-model';

/**
 * The alert rules under Prometheus's own tool: `promtool check rules` on every generated rule
 * file, `promtool test rules` on the unit tests beside this file (synthetic series on which each
 * alert fires, and healthy ones on which it stays silent). Where promtool is not installed these
 * two are skipped with a message saying how to get it; the coverage check below runs anyway.
 */
const TESTS_DIR = join(__dirname, 'promtool');
const RULES_DIR = join(REPO_ROOT, 'docker', 'monitoring', 'rules');
const testFiles = readdirSync(TESTS_DIR).filter((f) => f.endsWith('.test.yaml')).map((f) => join(TESTS_DIR, f));
const ruleFiles = readdirSync(RULES_DIR).filter((f) => f.endsWith('.yaml')).map((f) => join(RULES_DIR, f));

function findPromtool(): string | undefined {
  const candidates = [
    process.env['PROMTOOL_BIN'],
    ...(process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'promtool')),
    '/usr/bin/promtool',
  ];
  return candidates.find((path): path is string => Boolean(path) && existsSync(path as string));
}
const promtool = findPromtool();
if (!promtool) {
  process.stderr.write(
    'promtool.spec: promtool not found (PROMTOOL_BIN, PATH, /usr/bin): `promtool check rules` and `promtool test rules` are SKIPPED.\n' +
      '  Install it: Debian/Ubuntu `apt-get install prometheus` (it ships /usr/bin/promtool), or a Prometheus release tarball.\n',
  );
}

interface PromtoolTest {
  name: string;
  alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }>;
}
const cases = testFiles.flatMap((file) =>
  ((parse(readFileSync(file, 'utf8')) as { tests: PromtoolTest[] }).tests ?? []).flatMap((test) =>
    (test.alert_rule_test ?? []).map((check) => ({ file, test: test.name, alert: check.alertname, fires: (check.exp_alerts ?? []).length > 0 })),
  ),
);

describe('the alert rules', () => {
  const alerts = [...new Set(alertConcerns(deployedApps()).flatMap((c) => c.groups.flatMap((g) => g.rules.filter(isAlert).map((r) => r.alert))))];

  it.each(alerts)('%s has a promtool case where it fires and one where it stays silent', (alert) => {
    expect([alert, cases.some((c) => c.alert === alert && c.fires), cases.some((c) => c.alert === alert && !c.fires)]).toEqual([alert, true, true]);
  });

  (promtool ? it : it.skip)('pass `promtool check rules`, every file', () => {
    const result = spawnSync(promtool as string, ['check', 'rules', ...ruleFiles], { encoding: 'utf8' });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
    expect(result.stdout.match(/SUCCESS/g)).toHaveLength(ruleFiles.length);
  });

  (promtool ? it.each(testFiles.map((file) => [file.slice(TESTS_DIR.length + 1), file])) : it.skip.each([['(promtool missing)', '']]))(
    'pass `promtool test rules %s`',
    (_name, file) => {
      // promtool resolves rule_files from the test file's directory.
      const output = execFileSync(promtool as string, ['test', 'rules', file], { encoding: 'utf8', cwd: TESTS_DIR });
      expect(output).toContain('SUCCESS');
    },
  );
});
