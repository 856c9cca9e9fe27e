import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AppCommit } from './app-changes';

const TITLE = (app: string) =>
  `# ${app}: changelog\n\nEach release of this app alone (\`npm run release:app\`, docs/releasing-one-service.md): its version, the\n` +
  'image tag it is deployed by, and the commits since its previous release that changed it or a library it uses.\n';

/** The section of one release: version, date and the commits, newest first. */
export function changelogSection(version: string, date: string, commits: readonly AppCommit[]): string {
  const lines = commits.length > 0 ? commits.map((c) => `- ${c.subject} (${c.hash.slice(0, 7)})`) : ['- No change of its own: released to move its image forward.'];
  return `## ${version} (${date})\n\n${lines.join('\n')}\n`;
}

/** Writes a section on top of the app's CHANGELOG.md (created with its title when missing). */
export function prependChangelog(file: string, app: string, section: string): void {
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : TITLE(app);
  const firstSection = existing.indexOf('\n## ');
  const head = firstSection === -1 ? existing.trimEnd() + '\n' : existing.slice(0, firstSection + 1);
  const rest = firstSection === -1 ? '' : existing.slice(firstSection + 1);
  writeFileSync(file, `${head}\n${section}${rest ? `\n${rest}` : ''}`);
}
