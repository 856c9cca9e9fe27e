import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deployedApps, REPO_ROOT } from '../catalog';
import { alertConcerns } from './alert-rules';
import { isAlert, RUNBOOK_BASE_URL, RUNBOOKS_FILE } from './rules-model';

const runbooks = readFileSync(join(REPO_ROOT, RUNBOOKS_FILE), 'utf8');
/** Sections by the anchor a Markdown renderer gives their `### Heading`. */
const sections = new Map(
  runbooks.split(/^### /m).slice(1).map((section) => {
    const [heading = '', ...body] = section.split('\n');
    return [heading.trim().toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-'), body.join('\n')] as const;
  }),
);
const alerts = alertConcerns(deployedApps()).flatMap((c) => c.groups.flatMap((g) => g.rules.filter(isAlert)));

describe(`the runbooks (${RUNBOOKS_FILE})`, () => {
  it.each(alerts.map((alert) => [`${alert.alert} (${alert.labels.severity})`, alert] as const))(
    '%s links a section that says what it means, how to look and what to do',
    (_name, alert) => {
      const [base, anchor = ''] = alert.annotations.runbook_url.split('#');
      expect(base).toBe(RUNBOOK_BASE_URL);
      const section = sections.get(anchor);
      expect([anchor, section !== undefined]).toEqual([anchor, true]);
      for (const part of ['**What it means.**', '**How to look.**', '**What to do.**']) {
        expect([anchor, part, section?.includes(part)]).toEqual([anchor, part, true]);
      }
    },
  );

  it('has no section for an alert that does not exist', () => {
    const names = new Set(alerts.map((alert) => alert.alert.toLowerCase()));
    expect([...sections.keys()].filter((anchor) => !names.has(anchor))).toEqual([]);
  });
});
