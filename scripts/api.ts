/**
 * The public API report: API Extractor writes the surface of every entry point (from the built
 * `.d.ts`) to etc/<entry>.api.md. `npm run api` builds and updates the reports; `npm run api:check`
 * fails, naming each entry point, when the surface differs from the committed report, or when a
 * change to a report since the last release (the last commit touching CHANGELOG.md) comes without a
 * changeset in the same commit (or, uncommitted, in the same working tree).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each export of package.json (its `types` file), by the name its report file takes: `.` is `index`. */
export const ENTRY_POINTS: Readonly<Record<string, string>> = entryPointsOf(
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { types: string }> },
);

function entryPointsOf(manifest: { exports: Record<string, { types: string }> }): Record<string, string> {
  return Object.fromEntries(
    Object.entries(manifest.exports).map(([subpath, target]) => [
      subpath === '.' ? 'index' : subpath.slice(2),
      target.types.slice(2),
    ]),
  );
}

function configFor(name: string, entry: string): ExtractorConfig {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: `<projectFolder>/${entry}`,
      compiler: { tsconfigFilePath: '<projectFolder>/tsconfig.build.json' },
      apiReport: {
        enabled: true,
        reportFileName: `${name}.api.md`,
        reportFolder: '<projectFolder>/etc/',
        reportTempFolder: '<projectFolder>/node_modules/.cache/api-extractor/',
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        // The report is about the surface only: doc coverage is TypeDoc's check (`npm run docs`), and
        // types that several entry points share live in one module and are not re-exported by each.
        extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: `${root}package.json`,
  });
}

function git(...args: string[]): string {
  return gitRaw(...args).trim();
}

function gitRaw(...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' });
}

/** Commits (and the working tree) since the last release that change a report without a changeset. */
export function reportChangesWithoutChangeset(): string[] {
  const release = git('log', '-1', '--format=%H', '--', 'CHANGELOG.md');
  const range = release === '' ? 'HEAD' : `${release}..HEAD`;
  const offending: string[] = [];
  for (const commit of git('log', '--no-merges', '--format=%h', range, '--', 'etc').split('\n').filter(Boolean)) {
    const files = git('show', '--name-only', '--format=', commit).split('\n');
    if (!files.some(isChangeset))
      offending.push(`commit ${commit} (${git('log', '-1', '--format=%s', commit).slice(0, 60)})`);
  }
  const dirty = gitRaw('status', '--porcelain', '--untracked-files=all', '--', 'etc', '.changeset')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
  if (dirty.some((file) => file.startsWith('etc/')) && !dirty.some(isChangeset)) offending.push('the working tree');
  return offending;
}

function isChangeset(file: string): boolean {
  return /^\.changeset\/[^/]+\.md$/.test(file) && file !== '.changeset/README.md';
}

function main(update: boolean): number {
  mkdirSync(`${root}node_modules/.cache/api-extractor`, { recursive: true });
  const stale: string[] = [];
  for (const [name, entry] of Object.entries(ENTRY_POINTS)) {
    const result = Extractor.invoke(configFor(name, entry), {
      localBuild: update,
      showVerboseMessages: false,
      messageCallback: (message: ExtractorMessage) => {
        // This script prints its own verdict; API Extractor's console notices would repeat it.
        if (message.logLevel !== ExtractorLogLevel.Error) message.handled = true;
      },
    });
    if (!result.succeeded || (result.apiReportChanged && !update)) stale.push(name);
    else if (result.apiReportChanged) console.log(`api: updated etc/${name}.api.md`);
  }
  if (stale.length === 0) {
    const unlogged = update ? [] : reportChangesWithoutChangeset();
    if (unlogged.length > 0) {
      console.error(
        `api: the API report changed in ${unlogged.join(', ')} with no changeset beside it. ` +
          'Add one (`npx changeset`) saying what changed for users, in the same commit as the report.',
      );
      return 1;
    }
    console.log(
      `api: ${update ? 'reports up to date' : 'every entry point matches its report'} (${Object.keys(ENTRY_POINTS).length} entry points)`,
    );
    return 0;
  }
  console.error(
    `api: the public surface of ${stale.map((name) => `etc/${name}.api.md`).join(', ')} changed. ` +
      'If that is intended, run `npm run api`, commit the report and add a changeset (`npx changeset`) saying what changed for users.',
  );
  return 1;
}

process.exitCode = main(process.argv.includes('--update'));
