import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toHtml } from './html.js';
import { toJunit } from './junit.js';
import { toMarkdown } from './markdown.js';
import type { Report } from './model.js';
import { controlSafeJson } from '../helpers/spec/quote.js';

export interface WrittenFiles {
  [name: string]: string;
}

/** The report files of a run, by kind. */
export function reportFiles(dir: string): { json: string; previous: string; junit: string; markdown: string; html: string } {
  return {
    json: join(dir, 'report.json'),
    previous: join(dir, 'report.previous.json'),
    junit: join(dir, 'junit.xml'),
    markdown: join(dir, 'summary.md'),
    html: join(dir, 'report.html'),
  };
}

/** Writes every report file into `dir`, keeping the previous report.json as report.previous.json. */
export function writeReports(report: Report, dir: string): WrittenFiles {
  mkdirSync(dir, { recursive: true });
  const paths = reportFiles(dir);
  if (existsSync(paths.json)) renameSync(paths.json, paths.previous);
  const files: WrittenFiles = { json: paths.json, junit: paths.junit, markdown: paths.markdown, html: paths.html };
  const json = `${controlSafeJson(report, 2)}\n`;
  writeFileSync(paths.json, json);
  writeFileSync(paths.junit, toJunit(report));
  writeFileSync(paths.markdown, toMarkdown(report, { html: 'report.html', json: 'report.json', junit: 'junit.xml' }));
  writeFileSync(paths.html, toHtml(report, sha256Hex(json)));
  return files;
}

function sha256Hex(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Re-renders junit.xml, summary.md and report.html from an existing report.json (report.json itself is left as is); `reportBytes`: that file's bytes, whose SHA-256 the page shows. */
export function renderReports(report: Report, dir: string, reportBytes?: Uint8Array): WrittenFiles {
  mkdirSync(dir, { recursive: true });
  const paths = reportFiles(dir);
  writeFileSync(paths.junit, toJunit(report));
  writeFileSync(paths.markdown, toMarkdown(report, { html: 'report.html', json: 'report.json', junit: 'junit.xml' }));
  writeFileSync(paths.html, toHtml(report, reportBytes ? sha256Hex(reportBytes) : undefined));
  return { junit: paths.junit, markdown: paths.markdown, html: paths.html };
}
