/**
 * Code blocks of the Markdown docs: the TypeScript ones for the docs check
 * (test/package/docsCodeBlocks.test.ts), and any one block a script runs as written (the nginx
 * configuration of scaling.md, which the fleet runs use).
 * A block's info string says what it is: ```ts is a whole module that must type-check against the
 * built package; ```ts fragment is an excerpt and is not checked; ```ts run also runs (exit 0).
 */
import { readFileSync } from 'node:fs';

/** One fenced TypeScript block. */
export interface DocBlock {
  /** The Markdown file, relative to the repository root. */
  readonly file: string;
  /** The 1-based line of the block's first code line in `file`. */
  readonly line: number;
  readonly kind: 'module' | 'fragment' | 'run';
  readonly code: string;
}

const FENCE = /^```(ts|typescript)(?:\s+(\S+))?\s*$/;

/** The TypeScript blocks of `file` (read from `root`), in order. */
export function docBlocks(root: string, file: string): DocBlock[] {
  const lines = readFileSync(`${root}/${file}`, 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index] ?? '');
    if (open === null) continue;
    const marker = open[2];
    if (marker !== undefined && marker !== 'fragment' && marker !== 'run') {
      throw new Error(
        `${file}:${index + 1}: unknown code block marker "${marker}" (use \`ts\`, \`ts fragment\` or \`ts run\`)`,
      );
    }
    const end = lines.findIndex((text, at) => at > index && text.startsWith('```'));
    if (end === -1) throw new Error(`${file}:${index + 1}: code block is never closed`);
    blocks.push({
      file,
      line: index + 2,
      kind: marker ?? 'module',
      code: lines.slice(index + 1, end).join('\n') + '\n',
    });
    index = end;
  }
  return blocks;
}

/** The code of the one block of `file` (read from `root`) fenced as ```` ```language ````; throws unless there is exactly one. */
export function onlyBlock(root: string, file: string, language: string): string {
  const lines = readFileSync(`${root}/${file}`, 'utf8').split('\n');
  const starts = lines.flatMap((text, index) => (text.trim() === `\`\`\`${language}` ? [index] : []));
  if (starts.length !== 1) throw new Error(`${file}: expected one \`\`\`${language} block, found ${starts.length}`);
  const start = starts[0]! + 1;
  const end = lines.findIndex((text, at) => at >= start && text.startsWith('```'));
  if (end === -1) throw new Error(`${file}:${start}: code block is never closed`);
  return lines.slice(start, end).join('\n') + '\n';
}
