import { mkdirSync, writeFileSync } from 'node:fs';
import { controlSafeJson, escapeControlsButLayout } from '../helpers/spec/quote.js';
import { MAX_REPORT_FILE_BYTES, readBounded, TooLargeError } from '../helpers/spec/bounded.js';
import { basename, dirname, join, resolve } from 'node:path';
import { certify, CertificateUsageError, implementationLine, instanceClaimsLine, loadPrivateKey, loadPublicKey, ReportContradiction, ruleClaimsLine, verifyCertificate } from './certificate.js';
import { diffMarkdown, diffReports, readReport, ReportInputError } from './diff.js';
import { escapedReport } from './escape-report.js';
import { renderReports } from './write.js';

/**
 * The report commands of the CLI: diff, certify, verify, render. Each answers its exit code and
 * writes through `out`/`err`; a usage or input problem is thrown as UsageError (one line, exit 2).
 */

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}

// A report or certificate read from disk may carry a target's text: control characters as visible escapes (issue 29); the line breaks of a Markdown page stay.
const defaultIo: Io = { out: (line) => process.stdout.write(`${escapeControlsButLayout(line)}\n`), err: (line) => process.stderr.write(`${escapeControlsButLayout(line)}\n`) };

function readBytes(path: string, role: string): Buffer {
  try {
    return readBounded(path, MAX_REPORT_FILE_BYTES, role);
  } catch (error) {
    if (error instanceof TooLargeError) throw new UsageError(error.message);
    const code = (error as { code?: string }).code;
    throw new UsageError(`cannot read ${role} ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : ((error as Error).message ?? code)}`);
  }
}

function asUsage<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ReportInputError || error instanceof CertificateUsageError) throw new UsageError(error.message);
    throw error;
  }
}

/** `conformance diff BASE HEAD [--out DIR]`: 1 when anything regressed, 0 otherwise. */
export function diffCommand(basePath: string, headPath: string, outDir: string | undefined, io: Io = defaultIo): 0 | 1 {
  const base = asUsage(() => readReport(basePath, 'base report'));
  const head = asUsage(() => readReport(headPath, 'head report'));
  const diff = diffReports(base, head, { base: basePath, head: headPath });
  if (diff.differentTargets) io.err(`warning: the two reports are of different targets (base ${diff.base.target}, head ${diff.head.target}): this compares two implementations, not two runs of one`);
  const markdown = diffMarkdown(diff);
  const dir = resolve(outDir ?? dirname(headPath));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'diff.md'), markdown);
  writeFileSync(join(dir, 'diff.json'), `${controlSafeJson(diff, 2)}\n`);
  io.out(markdown.trimEnd());
  io.out('');
  const lost = diff.coverage.pairsLost.length + diff.coverage.constraintsLost.length + diff.coverage.rulesLost.length;
  const regressions = diff.tests.newlyFailing.length + lost + diff.shapeDrift.length;
  io.out(
    diff.regressed
      ? `Regressed: ${diff.tests.newlyFailing.length} newly failing, ${lost} coverage lost, ${diff.shapeDrift.length} new shape drift (${regressions} in all). Wrote ${join(dir, 'diff.md')}, ${join(dir, 'diff.json')}`
      : `No regression. Wrote ${join(dir, 'diff.md')}, ${join(dir, 'diff.json')}`,
  );
  return diff.regressed ? 1 : 0;
}

/** The default certificate file: next to the report, `report.json` -> `report.certificate.jws`. */
export function defaultCertificatePath(reportPath: string): string {
  return join(dirname(reportPath), `${basename(reportPath).replace(/\.json$/i, '')}.certificate.jws`);
}

/** `conformance certify --report FILE --key PRIVATE_KEY_PEM [--out FILE]`: 0 signed, 1 refused (the report's records contradict its verdict). */
export async function certifyCommand(reportPath: string, keyPath: string, outPath: string | undefined, io: Io = defaultIo): Promise<0 | 1> {
  const reportBytes = readBytes(reportPath, 'report');
  asUsage(() => readReport(reportPath, 'report'));
  const key = asUsage(() => loadPrivateKey(readBytes(keyPath, 'key'), keyPath));
  const result = await (async () => {
    try {
      return await certify(reportBytes, key);
    } catch (error) {
      if (error instanceof CertificateUsageError) throw new UsageError(error.message);
      if (error instanceof ReportContradiction) return error;
      throw error;
    }
  })();
  if (result instanceof ReportContradiction) {
    io.err(`${reportPath}: ${result.message}`);
    return 1;
  }
  const out = outPath ?? defaultCertificatePath(reportPath);
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, `${result.jws}\n`);
  const c = result.claims;
  io.out(`Certified ${reportPath} (sha256 ${c.report.sha256})`);
  io.out(`  verdict ${c.verdict} for ${c.target.baseUrl}${c.target.embedded ? ' (embedded reference)' : ''}; suite ${c.suite.name} ${c.suite.version}; spec ${c.spec.version}; run ${c.date}`);
  io.out(`  ${implementationLine(c.implementation)}`);
  io.out(`  ${ruleClaimsLine(c.rules)}`);
  io.out(`  ${instanceClaimsLine(c.instances)}`);
  io.out(`  signed ${result.alg}, key ${result.kid}`);
  if (c.reportVerdict === 'conformant' && c.verdict !== 'conformant') {
    const pending = c.rules?.pending ?? [];
    const unverified = c.rules?.unverified ?? [];
    if (!c.rules) io.out(`  note: a certification requires every observable rule verified, and the report predates rule coverage: certified "${c.verdict}"`);
    else if (pending.length || unverified.length) io.out(`  note: the run is conformant on the rules its suite version checks, but a certification requires every observable rule verified: certified "${c.verdict}"${pending.length ? `; checked by no test of suite ${c.suite.version}: ${pending.join(', ')}` : ''}${unverified.length ? `; not verified in the run: ${unverified.join(', ')}` : ''}`);
  } else if (c.verdict !== 'conformant') io.out(`  note: the certificate records the verdict "${c.verdict}": it certifies what the run found, not conformance`);
  io.out(`Wrote ${out}`);
  return 0;
}

/** `conformance verify --certificate FILE --key PUBLIC_KEY_PEM --report FILE`: 0 holds, 1 does not. */
export async function verifyCommand(certificatePath: string, keyPath: string, reportPath: string, io: Io = defaultIo): Promise<0 | 1> {
  const certificate = readBytes(certificatePath, 'certificate').toString('utf8');
  const key = asUsage(() => loadPublicKey(readBytes(keyPath, 'key'), keyPath));
  const reportBytes = readBytes(reportPath, 'report');
  const result = await (async () => {
    try {
      return await verifyCertificate(certificate, key, reportBytes);
    } catch (error) {
      if (error instanceof CertificateUsageError) throw new UsageError(error.message);
      throw error;
    }
  })();
  if (!result.holds) {
    const subject = result.what === 'report' ? `report ${reportPath}` : result.what === 'key' ? `key ${keyPath}` : `certificate ${certificatePath}`;
    io.out(`DOES NOT HOLD: ${subject}: ${result.reason}`);
    return 1;
  }
  const c = result.claims;
  io.out(`HOLDS: ${reportPath} is the report certified by ${certificatePath} (signature ${result.alg} valid for ${keyPath}; sha256 ${result.reportSha256})`);
  io.out(`  verdict ${c.verdict} for ${c.target.baseUrl}${c.target.embedded ? ' (embedded reference)' : ''}; suite ${c.suite.name} ${c.suite.version}; spec ${c.spec.title} ${c.spec.version}; run ${c.date}; signed ${c.issuedAt}`);
  if ((c.certificateVersion ?? 1) >= 3) io.out(`  ${implementationLine(c.implementation)}`);
  io.out(`  ${ruleClaimsLine(c.rules)}`);
  if ((c.certificateVersion ?? 1) >= 3) io.out(`  ${instanceClaimsLine(c.instances)}`);
  for (const note of result.notes) io.out(`  note: ${note}`);
  return 0;
}

/** `conformance render --report FILE [--out DIR]`: junit.xml, summary.md and report.html again from a report.json. */
export function renderCommand(reportPath: string, outDir: string | undefined, io: Io = defaultIo): 0 {
  // Escaped as the run escapes it: a hand-edited report.json may carry raw line breaks and controls anywhere (issue 29).
  const report = escapedReport(asUsage(() => readReport(reportPath, 'report')));
  const files = renderReports(report, resolve(outDir ?? dirname(reportPath)), readBytes(reportPath, 'report'));
  io.out(`Wrote ${Object.values(files).join(', ')}`);
  return 0;
}
