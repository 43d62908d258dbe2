import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toJunit } from './junit.js';
import type { Report } from './model.js';

export interface WrittenFiles {
  [name: string]: string;
}

/** Writes every report file into `dir`, keeping the previous report.json as report.previous.json. */
export function writeReports(report: Report, dir: string): WrittenFiles {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'report.json');
  if (existsSync(json)) renameSync(json, join(dir, 'report.previous.json'));
  const files: WrittenFiles = { json, junit: join(dir, 'junit.xml') };
  writeFileSync(files.json!, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(files.junit!, toJunit(report));
  return files;
}
