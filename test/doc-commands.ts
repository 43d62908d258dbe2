import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXPLORE_OPTIONS } from '../cli/explore.js';
import { RUN_OPTIONS } from '../cli/options.js';
import { SELECTION_OPTIONS, selectionOf } from '../cli/selection.js';
import { GROUPS } from '../helpers/spec/catalogue.js';
import { parseMutantsArgs } from '../mutation/args.js';
import { mutantByName } from '../reference/mutants/index.js';

/**
 * What the documentation shows, read as a reader would: its relative links (with their anchors) and
 * the shell commands of its ```sh / ```bash / ```console blocks (issue 26).
 *
 * A block is one of three kinds:
 * - marked as an example for a real deployment by its info string: ```sh example (never run: it
 *   needs a staging URL, a tarball, a key of your own);
 * - marked as run by a named self-test, with an HTML comment on the line before it:
 *   <!-- tested: test/action.test.ts --> (that file must exist and name the page);
 * - unmarked: every command in it is checked here, by running it (quick commands) or by the CLI's
 *   own option parsers (commands that start a run or need a target).
 */

export const DOC_FILES = (root: string): string[] => [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`),
];

export interface Block {
  file: string;
  line: number;
  info: string;
  text: string;
  /** The self-test the comment before the block names, if any. */
  testedBy?: string;
}

const FENCE = /^(\s*)(```+|~~~+)\s*(.*)$/;

/** Every fenced block of a Markdown text, with its info string and the line it starts on (1-based). */
export function fencedBlocks(file: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]!);
      if (close && close[2]!.startsWith(fence![0]!) && close[2]!.length >= fence!.length && close[3] === '') break;
      body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!.trimStart());
    }
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    const tested = k >= 0 ? /^\s*<!--\s*tested:\s*(\S+)\s*-->\s*$/.exec(lines[k]!)?.[1] : undefined;
    blocks.push({ file, line: i + 1, info: info!.trim(), text: body.join('\n'), ...(tested ? { testedBy: tested } : {}) });
    i = j;
  }
  return blocks;
}

/** A shell block: ```sh, ```bash, ```shell or ```console, with any words after it. */
export function isShellBlock(block: Block): boolean {
  return /^(sh|bash|shell|console)\b/.test(block.info);
}

export function isExample(block: Block): boolean {
  return block.info.split(/\s+/).slice(1).includes('example');
}

/** The Markdown text without its fenced blocks (a `#` line there is no heading). */
function withoutFences(markdown: string): string {
  const lines = markdown.split('\n');
  const kept: string[] = [];
  let fence: string | undefined;
  for (const line of lines) {
    const open = FENCE.exec(line);
    if (fence) {
      if (open && open[2]!.startsWith(fence) && open[3] === '') fence = undefined;
      kept.push('');
    } else if (open) {
      fence = open[2]![0]!.repeat(3);
      kept.push('');
    } else kept.push(line);
  }
  return kept.join('\n');
}

/** The Markdown text without its fenced blocks and code spans (where a link is no link). */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '``');
}

/** GitHub's anchor of a heading: its text lower-cased, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown file offers: its headings' slugs (a repeated one gets -1, -2, ...) and explicit ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  // A heading keeps its code spans: GitHub's anchor of "## `conformance proxy`: ..." starts with their text.
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]!);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const [, id] of line.replace(/`[^`\n]*`/g, '``').matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  }
  return anchors;
}

/** Each relative link of `file` that names no file, or an anchor its target lacks, as one line. */
export function brokenLinks(root: string, file: string, markdown = readFileSync(join(root, file), 'utf8')): string[] {
  const problems: string[] = [];
  const text = prose(markdown);
  // Inline links and images, HTML links, and the definitions of reference-style links ([text][ref] ... [ref]: path).
  const links = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...text.matchAll(/<a\s+href="([^"]+)"/g), ...text.matchAll(/^ {0,3}\[[^\]\n]+\]:\s*<?([^\s>]+)>?/gm)].map((m) => m[1]!);
  for (const link of links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:: not a file of the project
    const [path, anchor] = link.split('#', 2) as [string, string | undefined];
    const target = path === '' ? join(root, file) : resolve(root, dirname(file), decodeURIComponent(path));
    const shown = `${file}: link ${link}`;
    if (!target.startsWith(resolve(root))) {
      problems.push(`${shown} leaves the project`);
      continue;
    }
    if (!existsSync(target)) {
      problems.push(`${shown} names no file (${relative(root, target)})`);
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(target).isDirectory() || !target.endsWith('.md')) {
      problems.push(`${shown}: an anchor on a file that is not Markdown`);
      continue;
    }
    const targetText = path === '' ? markdown : readFileSync(target, 'utf8');
    if (!anchorsOf(targetText).has(anchor)) problems.push(`${shown}: ${relative(root, target)} has no heading with the anchor #${anchor}`);
  }
  return problems;
}

/** Splits a command line into words, honouring quotes; an unquoted `#` at a word's start ends it. */
export function words(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) break;
    else if ((c === '|' || c === ';' || c === '&') && word === undefined) {
      const two = line.slice(i, i + 2);
      const op = two === '&&' || two === '||' ? two : c;
      out.push(op);
      i += op.length - 1;
    } else word = (word ?? '') + c;
  }
  if (quote) throw new Error(`unclosed ${quote} in: ${line}`);
  if (word !== undefined) out.push(word);
  return out;
}

/** The commands of a shell block: continuation lines joined, comments dropped; a console block's are its `$ ` lines. */
export function commandsOf(block: Block): string[][] {
  let lines = block.text.replace(/\\\n/g, ' ').split('\n');
  if (block.info.startsWith('console')) lines = lines.filter((line) => line.startsWith('$ ')).map((line) => line.slice(2));
  const commands: string[][] = [];
  for (const line of lines) {
    let current: string[] = [];
    let afterPipe = false;
    for (const word of words(line)) {
      if (word === '&&' || word === '||' || word === ';') {
        if (current.length > 0 && !afterPipe) commands.push(current);
        current = [];
        afterPipe = false;
      } else if (word === '|') {
        if (current.length > 0 && !afterPipe) commands.push(current);
        current = [];
        afterPipe = true; // what a pipe feeds (jq, sort, head) only formats the output; the command before it is checked
      } else current.push(word);
    }
    if (current.length > 0 && !afterPipe) commands.push(current);
  }
  // Leading NAME=value assignments set the environment of the command, not the command.
  return commands.map((command) => command.slice(command.findIndex((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word)))).filter((command) => command.length > 0);
}

/** How one command of an unmarked block is checked. */
export type Verdict =
  | { kind: 'problem'; message: string }
  | { kind: 'parsed' }
  | { kind: 'run'; argv: string[]; program: 'conformance' | 'openssl' };

/** The conformance commands quick enough to run for real in a self-test. */
const RUN_FOR_REAL = new Set(['--version', '-v', 'version', '--help', '-h', 'help', 'list', 'openapi']);

function conformanceArgs(command: string[]): string[] | undefined {
  if (command[0] === 'npx' && command[1] === 'conformance') return command.slice(2);
  if (command[0] === 'node_modules/.bin/conformance' || command[0] === 'conformance') return command.slice(1);
  if (command[0] === 'node' && command[1] === 'bin/conformance.mjs') return command.slice(2);
  return undefined;
}

const strictParse = (args: string[], options: NonNullable<ParseArgsConfig['options']>) => parseArgs({ args, options, strict: true, allowPositionals: false }).values as Record<string, unknown>;

/**
 * Checks one command shown in an unmarked block: `help` is the text of `conformance help COMMAND`
 * for the commands whose options are not exported (their flags must appear in it).
 */
export function checkCommand(root: string, command: string[], help: (subcommand: string) => string): Verdict {
  const shown = command.join(' ');
  const problem = (message: string): Verdict => ({ kind: 'problem', message: `${shown}: ${message}` });
  const args = conformanceArgs(command);
  if (args) {
    const [sub, ...rest] = args;
    if (sub === undefined) return problem('no command');
    if (sub === 'states' && rest[0] === 'template') return { kind: 'run', program: 'conformance', argv: args };
    if (RUN_FOR_REAL.has(sub)) return { kind: 'run', program: 'conformance', argv: args };
    if (rest.includes('--help') || rest.includes('-h')) return { kind: 'run', program: 'conformance', argv: args };
    if (sub === 'run' || sub === 'explore') {
      try {
        const values = strictParse(rest, sub === 'run' ? { ...RUN_OPTIONS, ...SELECTION_OPTIONS, failed: { type: 'boolean' } } : { ...RUN_OPTIONS, ...SELECTION_OPTIONS, ...EXPLORE_OPTIONS });
        const groups = (values.group as string[] | undefined) ?? [];
        const unknown = groups.filter((group) => !(GROUPS as readonly string[]).includes(group));
        if (unknown.length > 0) return problem(`no group named ${unknown.join(', ')}`);
        if (typeof values.mutant === 'string' && !values.mutant.startsWith('$') && !mutantByName(values.mutant)) return problem(`no mutant named ${values.mutant}`);
        selectionOf(sub, values as Parameters<typeof selectionOf>[1]);
      } catch (error) {
        return problem((error as Error).message.split('\n')[0]!);
      }
      return { kind: 'parsed' };
    }
    const text = help(sub === 'states' ? 'states' : sub);
    if (!text.startsWith('usage:')) return problem(`conformance has no command "${sub}"`);
    if (sub === 'states' && !new RegExp(`states ${rest[0] ?? '-'}\\b`).test(text)) return problem(`\`conformance states\` has no subcommand "${rest[0] ?? ''}" (conformance help states)`);
    for (const flag of rest.filter((word) => word.startsWith('--'))) {
      const name = flag.split('=')[0]!;
      if (!new RegExp(`${name.replace(/[-]/g, '\\-')}\\b`).test(text)) return problem(`\`conformance ${sub}\` has no option ${name} (conformance help ${sub})`);
    }
    return { kind: 'parsed' };
  }
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies: Record<string, string>; dependencies: Record<string, string> };
  if (command[0] === 'npm') {
    const [, verb, script, ...rest] = command;
    if (verb === 'ci') return command.length === 2 ? { kind: 'parsed' } : problem('npm ci takes no arguments here');
    const name = verb === 'run' ? script : verb;
    if (!name || !(name in manifest.scripts)) return problem(`package.json has no script "${name}"`);
    if (name === 'mutants') {
      const after = verb === 'run' ? rest : [script!, ...rest].filter(Boolean);
      const mutantArgs = after[0] === '--' ? after.slice(1) : after;
      try {
        const parsed = parseMutantsArgs(mutantArgs);
        const missing = (parsed.mutant ?? []).filter((name) => !mutantByName(name));
        if (missing.length > 0) return problem(`no mutant named ${missing.join(', ')}`);
      } catch (error) {
        return problem((error as Error).message);
      }
    }
    return { kind: 'parsed' };
  }
  if (command[0] === 'npx' && command[1] === 'tsc') return 'typescript' in manifest.devDependencies ? { kind: 'parsed' } : problem('typescript is no dependency');
  if (command[0] === 'npx' && command[1] === 'vitest' && command[2] === 'run') {
    const configAt = command.indexOf('--config');
    const files = command.slice(3).filter((word, i) => !word.startsWith('--') && command[i + 2] !== '--config');
    if (configAt < 0 || !existsSync(join(root, command[configAt + 1]!))) return problem('names no vitest config of the project');
    const missing = files.filter((file) => !existsSync(join(root, file)));
    return missing.length > 0 ? problem(`names no file ${missing.join(', ')}`) : { kind: 'parsed' };
  }
  if (command[0] === 'openssl') return { kind: 'run', program: 'openssl', argv: command.slice(1) };
  return problem(`"${command[0]}" is no command this test can check: run it in a self-test (<!-- tested: test/FILE.test.ts -->) or mark the block \`sh example\``);
}

/** The self-test a `tested:` comment names must exist and name the page. */
export function testedByProblem(root: string, block: Block): string | undefined {
  const path = join(root, block.testedBy!);
  if (!existsSync(path)) return `${block.file}:${block.line}: tested by ${block.testedBy}, which does not exist`;
  if (!readFileSync(path, 'utf8').includes(basename(block.file))) return `${block.file}:${block.line}: ${block.testedBy} never names ${basename(block.file)}, so it cannot run this block`;
  return undefined;
}
