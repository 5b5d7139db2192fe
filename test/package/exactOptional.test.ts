/**
 * The package's declarations compile in an application with `exactOptionalPropertyTypes: true`
 * and `skipLibCheck: false` (issue "The first hour", item 11): a consumer importing every entry
 * point, including the documented `taskOf(await client.callTool(…))`, type-checks against dist/.
 * Diagnostics inside other packages' declarations are theirs, not ours, and are not counted.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Inside the package, so `mcp-resolve/...` resolves through its own exports to dist/.
const workDir = join(root, '.exact-check');

const CONSUMER = `
import type { Client } from '@modelcontextprotocol/client';
import * as core from 'mcp-resolve';
import * as contracts from 'mcp-resolve/contracts';
import * as mrtr from 'mcp-resolve/mrtr';
import * as node from 'mcp-resolve/node';
import * as otel from 'mcp-resolve/otel';
import * as redis from 'mcp-resolve/redis';
import { connectInProcess } from 'mcp-resolve/testing';
import { taskOf } from 'mcp-resolve/client';
import * as workers from 'mcp-resolve/workers';

declare const client: Client;
const task = taskOf(await client.callTool({ name: 'long_job', arguments: {} }));
export const used = [core, contracts, mrtr, node, otel, redis, connectInProcess, task, workers];
`;

describe('declarations under exactOptionalPropertyTypes', () => {
  it('compile with skipLibCheck off', () => {
    if (!existsSync(join(root, 'dist', 'index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` first');
    rmSync(workDir, { recursive: true, force: true });
    mkdirSync(workDir, { recursive: true });
    const consumer = join(workDir, 'consumer.ts');
    writeFileSync(consumer, CONSUMER);
    const program = ts.createProgram([consumer], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: false,
      noEmit: true,
    });
    const ours = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => {
        const file = diagnostic.file?.fileName ?? consumer;
        return !file.includes(`${sep}node_modules${sep}`) || file.startsWith(join(root, 'dist'));
      })
      .map(
        (diagnostic) =>
          `${diagnostic.file?.fileName.replace(root, '') ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`,
      );
    rmSync(workDir, { recursive: true, force: true });
    expect(ours).toEqual([]);
  });
});
