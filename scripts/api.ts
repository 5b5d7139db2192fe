/**
 * The public API report: API Extractor writes the surface of every entry point (from the built
 * `.d.ts`) to etc/<entry>.api.md. `npm run api` builds and updates the reports (and deletes the
 * report of an entry point that is gone); `npm run api:check` fails, naming each entry point, when
 * the surface differs from the committed report, when a report has no entry point, when a name is
 * exported by two entry points, or when a change to a report since the last release (the last
 * commit touching CHANGELOG.md) comes without a changeset in the same commit, or on the branch a
 * merge brought it in with (or, uncommitted, in the same working tree). Both print how many names each entry point exports, and the total.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';
import ts from 'typescript';

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
  const described = commitsOfDescribedBranches(range);
  for (const commit of git('log', '--no-merges', '--format=%H', range, '--', 'etc').split('\n').filter(Boolean)) {
    const files = git('show', '--name-only', '--format=', commit).split('\n');
    if (!files.some(isChangeset) && !described.has(commit))
      offending.push(`commit ${commit.slice(0, 7)} (${git('log', '-1', '--format=%s', commit).slice(0, 60)})`);
  }
  const dirty = gitRaw('status', '--porcelain', '--untracked-files=all', '--', 'etc', '.changeset')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
  if (dirty.some((file) => file.startsWith('etc/')) && !dirty.some(isChangeset)) offending.push('the working tree');
  return offending;
}

/**
 * The commits of branches merged in `range` whose merge adds a changeset (anywhere on the branch, as
 * a pull request carries one): a report change there is described by it, as in its own commit.
 */
function commitsOfDescribedBranches(range: string): Set<string> {
  const described = new Set<string>();
  for (const merge of git('log', '--merges', '--format=%H', range).split('\n').filter(Boolean)) {
    const [first, second] = git('log', '-1', '--format=%P', merge).split(' ');
    if (first === undefined || second === undefined) continue;
    const added = git('diff', '--name-only', '--diff-filter=A', `${first}...${second}`).split('\n');
    if (!added.some(isChangeset)) continue;
    for (const commit of git('log', '--format=%H', `${first}..${second}`).split('\n').filter(Boolean))
      described.add(commit);
  }
  return described;
}

function isChangeset(file: string): boolean {
  return /^\.changeset\/[^/]+\.md$/.test(file) && file !== '.changeset/README.md';
}

/** The names each entry point exports, read from its built `.d.ts` by the TypeScript checker. */
export function exportsByEntry(): Map<string, string[]> {
  const files = Object.entries(ENTRY_POINTS).map(([name, entry]) => [name, join(root, entry)] as const);
  const program = ts.createProgram(
    files.map(([, file]) => file),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true },
  );
  const checker = program.getTypeChecker();
  const names = new Map<string, string[]>();
  for (const [name, file] of files) {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    names.set(name, module === undefined ? [] : checker.getExportsOfModule(module).map((symbol) => symbol.name));
  }
  return names;
}

/** Prints the export count per entry point and the total; returns the names exported by more than one entry point. */
function countExports(): string[] {
  const byEntry = exportsByEntry();
  const owners = new Map<string, string[]>();
  for (const [entry, names] of byEntry) {
    for (const name of names) owners.set(name, [...(owners.get(name) ?? []), entry]);
  }
  const counts = [...byEntry].map(([entry, names]) => `${entry} ${names.length}`).join(', ');
  const total = [...byEntry.values()].reduce((sum, names) => sum + names.length, 0);
  console.log(`api: ${total} public exports (${counts})`);
  return [...owners]
    .filter(([, entries]) => entries.length > 1)
    .map(([name, entries]) => `${name} (${entries.join(', ')})`);
}

/** Reports in etc/ whose entry point is gone: deleted by `--update`, else returned. */
function orphanReports(update: boolean): string[] {
  const orphans = readdirSync(join(root, 'etc')).filter(
    (file) => file.endsWith('.api.md') && !Object.hasOwn(ENTRY_POINTS, file.slice(0, -'.api.md'.length)),
  );
  if (!update) return orphans;
  for (const file of orphans) {
    rmSync(join(root, 'etc', file));
    console.log(`api: deleted etc/${file} (its entry point is gone)`);
  }
  return [];
}

function main(update: boolean): number {
  mkdirSync(`${root}node_modules/.cache/api-extractor`, { recursive: true });
  const twice = countExports();
  if (twice.length > 0) {
    console.error(`api: every name is exported by one entry point; these are exported by more: ${twice.join(', ')}.`);
    return 1;
  }
  const orphans = orphanReports(update);
  if (orphans.length > 0) {
    console.error(
      `api: ${orphans.map((file) => `etc/${file}`).join(', ')} report an entry point package.json no longer exports. Run \`npm run api\` to delete them.`,
    );
    return 1;
  }
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
