import { escapeControls, escapeControlsButLayout } from '../helpers/spec/quote.js';
import { CLAUSES } from '../helpers/spec/catalogue.js';
import type { Exchange } from '../helpers/net/http.js';
import { actualStatus, advisedTests, conformantScope, expectedActual, expectedFailedTests, expectedReason, expectedText, constraintsHeadline, failedTests, gateLine, failuresHeading, incompleteReason, notedTests, reasonDetail, schemaPointers, securityCount, securityTests, shortName, skipReasons, verifiedPairs } from './facts.js';
import type { ConstraintCoverage, PairCoverage, PairOutcome, Report, RuleCoverage, RuleTally, TestRecord } from './model.js';

/**
 * report.html: the certification report as one self-contained page. Inline CSS and a few lines of
 * inline JS (filters, expand all); no network access (a Content-Security-Policy forbids it); every
 * piece of content is escaped. It opens from disk and prints.
 */

export function escapeHtml(text: unknown): string {
  // Control characters (but line feed and tab, the layout of bodies) as visible escapes (issue 29): bidi controls would reorder what a reader sees.
  return escapeControlsButLayout(String(text)).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Tagged template: interpolated values are escaped unless they are already HTML (`raw`). */
class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}
const raw = (value: string) => new Html(value);
function h(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    const rendered = Array.isArray(value) ? value.map((v) => (v instanceof Html ? v.value : escapeHtml(v))).join('') : value instanceof Html ? value.value : value === null || value === undefined || value === false ? '' : escapeHtml(value);
    out += rendered + strings[i + 1]!;
  });
  return new Html(out);
}

const anchor = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const pairAnchor = (pair: { endpoint: string; status: number }) => `pair-${anchor(pair.endpoint)}-${pair.status}`;
const testAnchor = (id: string) => `t-${anchor(id)}`;

const OUTCOME_CLASS: Record<PairOutcome | TestRecord['outcome'], string> = { passed: 'pass', failed: 'fail', skipped: 'nv', 'not verified': 'nv' };
const OUTCOME_MARK: Record<PairOutcome, string> = { passed: '\u2713', failed: '\u2717', 'not verified': '\u2013' };

const BODY_LIMIT = 20_000;

/** Coverage reasons may carry a response body: the test itself shows it in full. */
const clip = (text: string | null, max = 200) => (text === null ? '' : text.length > max ? `${text.slice(0, max - 1)}\u2026` : text);

function cut(text: string): string {
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}\n\u2026 (${text.length - BODY_LIMIT} more characters in report.json)` : text;
}

/**
 * A JSON body: an object or array as JSON.stringify writes it (a line break inside a string is `\n`);
 * a body that is one JSON string (a target's answer, or a raw body a hand-edited report.json carries)
 * on one line, each control a visible escape, so that no line break of it begins a line of the page.
 */
function pretty(value: unknown): string {
  return cut(typeof value === 'string' ? escapeControls(value) : JSON.stringify(value, null, 2));
}

/** A body that is not JSON, as the target sent it yet as data (issue 29): its lines indented, so none begins a line of the page, each control a visible escape. */
function asText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => `  ${escapeControls(line)}`)
    .join('\n');
}

function exchangeText(exchange: Exchange): string {
  const lines = [`${exchange.request.method} ${exchange.request.url}`];
  for (const [name, value] of Object.entries(exchange.request.headers)) lines.push(`${name}: ${value}`);
  if (exchange.request.body !== undefined) lines.push('', pretty(exchange.request.body));
  lines.push('');
  if (exchange.response) {
    lines.push(`\u2190 HTTP ${exchange.response.status}  (${exchange.durationMs} ms)`);
    for (const [name, value] of Object.entries(exchange.response.headers)) lines.push(`${name}: ${value}`);
    if (exchange.response.body !== undefined) lines.push('', pretty(exchange.response.body));
    else if (exchange.response.bodyText !== undefined) lines.push('', asText(cut(exchange.response.bodyText)));
  } else {
    lines.push(`\u2190 no answer: ${escapeControls(exchange.error ?? 'unknown error')}  (${exchange.durationMs} ms)`);
  }
  return lines.join('\n');
}

function exchanges(test: TestRecord): Html {
  if (test.exchanges.length === 0) return h`<p class="muted">No request was sent.</p>`;
  const items = test.exchanges.map((exchange, i) => {
    const answer = exchange.response ? `HTTP ${exchange.response.status}` : 'no answer';
    return h`<details class="exchange"><summary>${i + 1}. ${exchange.request.method} ${exchange.request.url} \u2192 ${answer}</summary><pre>${exchangeText(exchange)}</pre></details>`;
  });
  return h`<div class="exchanges"><h5>Requests and responses (secrets redacted)</h5>${items}</div>`;
}

function clauseList(clauses: string[]): Html {
  return h`${clauses.map((c, i) => h`${i > 0 ? ', ' : ''}<abbr title="${CLAUSES[c] ?? ''}">\u00a7${c}</abbr>`)}`;
}

function testDetails(test: TestRecord): Html {
  const problems = schemaPointers(test);
  const rows: [string, Html | string][] = [
    ['Endpoint', h`<code>${test.endpoint}</code>`],
    ['Clauses', test.clauses.map((c) => `\u00a7${c}${CLAUSES[c] ? ` ${CLAUSES[c]}` : ''}`).join('; ')],
    ['Expected status', expectedText(test)],
    ['Observed status', test.observedStatus.length > 0 ? test.observedStatus.join(', ') : actualStatus(test)],
  ];
  if (test.constraint) rows.push(['Field constraint', h`<code>${test.constraint}</code>`]);
  if (test.rules && test.rules.length > 0) rows.push(['Rules', h`${test.rules.map((id, i) => h`${i > 0 ? ', ' : ''}<a href="#rule-${id}">${id}</a>`)}`]);
  if (test.reason && test.outcome === 'skipped') rows.push(['Not verified because', test.reason]);
  if (test.expectedFailure) rows.push(['Expected failure', `${expectedReason(test)} (${test.expectedFailure.entry})`]);
  rows.push(['Suite file', h`<code>${test.file}</code> (${test.durationMs} ms)`]);
  return h`<details class="test ${OUTCOME_CLASS[test.outcome]}${test.advisories.length > 0 ? ' advised' : ''}" id="${testAnchor(test.id)}">
<summary><span class="badge ${OUTCOME_CLASS[test.outcome]}">${test.outcome}</span> ${test.name} <span class="clauses">${clauseList(test.clauses)}</span>${test.advisories.length > 0 ? raw(' <span class="badge adv">advisory</span>') : ''}</summary>
<dl class="kv">${rows.map(([k, v]) => h`<dt>${k}</dt><dd>${v}</dd>`)}</dl>
${test.failure ? h`<h5>Failure</h5><pre class="failure">${test.failure.message}</pre>` : ''}
${problems.length > 0 ? h`<h5>Schema problems</h5><table class="problems"><thead><tr><th>Schema</th><th>JSON pointer</th><th>Rule</th><th>Message</th></tr></thead><tbody>${problems.map((p) => h`<tr><td>${p.schema}</td><td><code>${p.pointer}</code></td><td>${p.rule}</td><td>${p.message}</td></tr>`)}</tbody></table>` : ''}
${(test.security?.length ?? 0) > 0 ? h`<h5>Security findings</h5><ul class="failures">${(test.security ?? []).map((f) => h`<li>${f}</li>`)}</ul>` : ''}
${(test.notes?.length ?? 0) > 0 ? h`<h5>Measured</h5><ul>${(test.notes ?? []).map((n) => h`<li>${n}</li>`)}</ul>` : ''}
${test.advisories.length > 0 ? h`<h5>Advisories</h5><ul class="advisories">${test.advisories.map((a) => h`<li>${a}</li>`)}</ul>` : ''}
${exchanges(test)}
</details>`;
}

function matrix(pairs: PairCoverage[], names: Map<string, string>, outcomes: Map<string, TestRecord['outcome']>): Html {
  const statuses = [...new Set(pairs.map((p) => p.status))].sort((a, b) => a - b);
  const endpoints = [...new Set(pairs.map((p) => p.endpoint))];
  const byKey = new Map(pairs.map((p) => [`${p.endpoint} ${p.status}`, p]));
  const rows = endpoints.map((endpoint) => {
    const cells = statuses.map((status) => {
      const pair = byKey.get(`${endpoint} ${status}`);
      if (!pair) return h`<td class="na" title="not documented for this endpoint"></td>`;
      const tip = `${pair.status}: ${pair.condition}\n${pair.outcome}${pair.reason ? `: ${pair.reason}` : ''}${pair.tests.length > 0 ? `\n${pair.tests.length} test(s)` : ''}`;
      return h`<td class="${OUTCOME_CLASS[pair.outcome]}" title="${tip}"><a href="#${pairAnchor(pair)}">${OUTCOME_MARK[pair.outcome]}</a></td>`;
    });
    const open = pairs.filter((p) => p.endpoint === endpoint && p.outcome !== 'passed');
    const notes = new Map<string, { statuses: number[]; failing: string[] }>();
    for (const pair of open) {
      const failing = pair.outcome === 'failed' ? pair.tests.filter((id) => outcomes.get(id) === 'failed') : [];
      const key = pair.outcome === 'failed' ? `failed: ${failing.join(' ')}` : `${pair.reason ?? pair.outcome}`;
      const note = notes.get(key) ?? { statuses: [], failing };
      note.statuses.push(pair.status);
      notes.set(key, note);
    }
    const why = [...notes].map(([key, note], i) =>
      h`${i > 0 ? raw('<br>') : ''}<b>${note.statuses.join(', ')}</b> ${
        note.failing.length > 0 ? h`failed: ${note.failing.map((id, j) => h`${j > 0 ? '; ' : ''}<a href="#${testAnchor(id)}">${names.get(id) ?? id}</a>`)}` : key
      }`,
    );
    return h`<tr><th scope="row"><code>${endpoint}</code></th>${cells}<td class="why">${why}</td></tr>`;
  });
  return h`<table class="matrix"><thead><tr><th>Endpoint \\ status</th>${statuses.map((s) => h`<th>${s}</th>`)}<th>Failed or not verified because</th></tr></thead><tbody>${rows}</tbody></table>
<p class="legend"><span class="swatch pass">\u2713</span> passed <span class="swatch fail">\u2717</span> failed <span class="swatch nv">\u2013</span> not verified <span class="swatch na"></span> not documented for the endpoint. Each cell links to its row below.</p>`;
}

function testLinks(ids: string[], names: Map<string, string>): Html {
  // Names without the "METHOD /path" prefix: the row already names the endpoint.
  return h`${ids.map((id, i) => h`${i > 0 ? raw('<br>') : ''}<a href="#${testAnchor(id)}">${names.get(id) ?? id}</a>`)}`;
}

function pairTable(pairs: PairCoverage[], names: Map<string, string>): Html {
  const rows = pairs.map(
    (p) =>
      h`<tr id="${pairAnchor(p)}" class="${OUTCOME_CLASS[p.outcome]}"><td><code>${p.endpoint}</code></td><td>${p.status}</td><td>${p.condition}</td><td><span class="badge ${OUTCOME_CLASS[p.outcome]}">${p.outcome}</span></td><td>${p.observed ? `verified through the allowed alternative: the target answered ${p.observed.join(' or ')}` : ''}${clip(p.reason)}${(p.reason || p.observed) && p.tests.length ? raw('<br>') : ''}${testLinks(p.tests, names)}</td></tr>`,
  );
  return h`<table class="list"><thead><tr><th>Endpoint</th><th>Status</th><th>Documented condition</th><th>Outcome</th><th>Reason / tests</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function constraintTable(constraints: ConstraintCoverage[], names: Map<string, string>): Html {
  const rows = constraints.map(
    (c) =>
      h`<tr class="${OUTCOME_CLASS[c.outcome]}"><td><code>${c.id}</code></td><td><code>${c.endpoint}</code></td><td>${c.field}</td><td>${c.rule}</td><td>${c.observable === false ? raw('<span class="badge">not observable</span>') : h`<span class="badge ${OUTCOME_CLASS[c.outcome]}">${c.outcome}</span>`}</td><td>${clip(c.reason)}${c.reason && c.tests.length ? raw('<br>') : ''}${testLinks(c.tests, names)}</td></tr>`,
  );
  return h`<table class="list"><thead><tr><th>Constraint</th><th>Endpoint</th><th>Field</th><th>Rule</th><th>Outcome</th><th>Reason / tests</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function ruleRow(r: RuleCoverage, names: Map<string, string>): Html {
  return h`<tr id="rule-${r.id}" class="${OUTCOME_CLASS[r.outcome]}"><td><code>${r.id}</code></td><td>${r.sections.map((c) => `\u00a7${c}`).join(', ')}</td><td>${r.quote}</td><td><span class="badge ${OUTCOME_CLASS[r.outcome]}">${!r.observable ? 'unobservable' : r.pending ? 'pending' : r.outcome}</span></td><td>${clip(r.reason)}${r.reason && r.tests.length ? raw('<br>') : ''}${testLinks(r.tests, names)}</td></tr>`;
}

const RULE_HEAD = raw('<thead><tr><th>Rule</th><th>Sections</th><th>What the specification says</th><th>Outcome</th><th>Reason / tests</th></tr></thead>');

/** Since 1.4.0: instance coverage beside rule coverage, with the instances not verified. */
function instanceSection(report: Report, names: Map<string, string>): Html {
  const summary = report.coverage.instanceSummary;
  const instances = report.coverage.instances;
  if (!summary || !instances) return h``;
  const open = instances.filter((i) => i.observable && i.outcome !== 'passed');
  return h`<h3 id="rule-instances">Rule instances (${summary.verified} of ${summary.observable} verified)</h3>
<p class="muted">An instance is one place a rule applies: an endpoint, a path shape, a class (a kind of credential, an invariant, an extra field). A rule of several places is verified only when a passing test checked each of them.</p>
${open.length === 0 ? h`<p class="muted">None left: every instance of every observable rule was verified.</p>` : h`<table class="list"><thead><tr><th>Instance</th><th>Outcome</th><th>Why, tests</th></tr></thead><tbody>${open.map((i) => h`<tr class="${OUTCOME_CLASS[i.outcome]}"><td><code>${i.id}</code></td><td><span class="badge ${OUTCOME_CLASS[i.outcome]}">${i.outcome}</span></td><td>${clip(i.reason)}${i.reason && i.tests.length ? raw('<br>') : ''}${testLinks(i.tests, names)}</td></tr>`)}</tbody></table>`}`;
}

/**
 * Rule coverage: verified out of observable per section (pending apart from not verified), the rules no
 * test of this suite version checks, the other observable rules not verified, the unobservable ones with
 * their reason, every rule.
 */
function ruleSection(report: Report, names: Map<string, string>): Html {
  const rules = report.coverage.rules;
  const summary = report.coverage.ruleSummary;
  if (!rules || !summary) return h`<section id="rules"><h2>Rules of the specification</h2><p class="muted">This report predates rule coverage (report format ${report.reportVersion}; rules since 1.2.0).</p></section>`;
  const pending = rules.filter((r) => r.observable && r.pending === true);
  const open = rules.filter((r) => r.observable && r.outcome !== 'passed' && r.pending !== true);
  const unobservable = rules.filter((r) => !r.observable);
  const percent = (n: number, of: number) => (of === 0 ? 100 : Math.floor((100 * n) / of));
  // Not verified in this run, apart from pending (a report before 1.3.0 has no pending count).
  const inRun = (t: RuleTally) => t.notVerified - (t.pending ?? 0);
  const sectionRows = summary.sections.map(
    (c) =>
      h`<tr class="${c.failed > 0 ? 'fail' : c.notVerified > 0 ? 'nv' : 'pass'}"><td>\u00a7${c.section}</td><td>${c.title}</td><td class="num"><b>${c.verified}</b> / ${c.observable}</td><td><div class="meter" title="${percent(c.verified, c.observable)}% verified"><span style="width:${percent(c.verified, c.observable)}%"></span></div></td><td class="num">${c.failed || ''}</td><td class="num">${inRun(c) || ''}</td><td class="num">${c.pending || ''}</td><td class="num">${c.unobservable || ''}</td></tr>`,
  );
  return h`<section id="rules"><h2>Rules of the specification (${summary.verified} of ${summary.observable} observable rules verified${pending.length > 0 ? `; ${pending.length} checked by no test of this suite version` : ''})</h2>
<p class="muted">The specification split into ${rules.length} atomic rules, each traced to the tests that cite it. A rule is verified when a test citing it passed. A certification needs every observable rule verified, including the ones no test of this suite version checks yet (pending: the suite's gap, not the target's); the ${summary.unobservable} rules no client can observe are listed with the reason, and not counted.</p>
<table class="list rules-by-section"><thead><tr><th>Section</th><th>Title</th><th>Verified / observable</th><th></th><th>Failed</th><th>Not verified</th><th>Pending (no test yet)</th><th>Unobservable</th></tr></thead><tbody>${sectionRows}<tr class="total"><td colspan="2"><b>All sections</b></td><td class="num"><b>${summary.verified}</b> / ${summary.observable}</td><td><div class="meter"><span style="width:${percent(summary.verified, summary.observable)}%"></span></div></td><td class="num">${summary.failed || ''}</td><td class="num">${inRun(summary) || ''}</td><td class="num">${summary.pending || ''}</td><td class="num">${summary.unobservable}</td></tr></tbody></table>
<h3 id="rules-pending">Checked by no test of this suite version (${pending.length})</h3>
${pending.length === 0 ? h`<p class="muted">None: a test of this suite version checks every observable rule.</p>` : h`<p class="muted">Not verified on any target: ${report.verdict === 'conformant' ? 'this run is conformant on the other observable rules only, and a certificate says incomplete.' : 'a certificate says at best incomplete.'}</p><table class="list">${RULE_HEAD}<tbody>${pending.map((r) => ruleRow(r, names))}</tbody></table>`}
<h3>Observable rules not verified in this run (${open.length})</h3>
${open.length === 0 ? h`<p class="muted">None: every observable rule a test checks was verified.</p>` : h`<table class="list">${RULE_HEAD}<tbody>${open.map((r) => ruleRow(r, names))}</tbody></table>`}
${instanceSection(report, names)}
<h3>Rules no client can observe (${unobservable.length})</h3>
<table class="list"><thead><tr><th>Rule</th><th>Sections</th><th>What the specification says</th><th>Why it cannot be observed</th></tr></thead><tbody>${unobservable.map((r) => h`<tr id="rule-${r.id}" class="nv"><td><code>${r.id}</code></td><td>${r.sections.map((c) => `\u00a7${c}`).join(', ')}</td><td>${r.quote}</td><td>${(r.reason ?? '').replace(/^not observable by a client: /, '')}</td></tr>`)}</tbody></table>
<details class="all-rules"><summary>Every observable rule with its tests (${summary.observable})</summary><table class="list">${RULE_HEAD}<tbody>${rules.filter((r) => r.observable && r.outcome === 'passed').map((r) => ruleRow(r, names))}</tbody></table></details>
</section>`;
}

const STYLE = `
:root{--pass:#1a7f37;--pass-bg:#dafbe1;--fail:#cf222e;--fail-bg:#ffebe9;--nv:#57606a;--nv-bg:#eaeef2;--adv:#9a6700;--adv-bg:#fff8c5;--line:#d0d7de;--muted:#57606a}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2328;margin:0;padding:0 24px 48px;max-width:1400px}
h1{font-size:22px;margin:20px 0 8px}h2{font-size:18px;margin:28px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}h3{font-size:15px;margin:18px 0 6px}h5{font-size:13px;margin:12px 0 4px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{background:#f6f8fa;border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow:auto;white-space:pre-wrap;word-break:break-word;max-height:480px}
a{color:#0969da;text-decoration:none}a:hover{text-decoration:underline}
.muted{color:var(--muted)}
header{display:flex;flex-wrap:wrap;gap:12px 32px;align-items:flex-start;border-bottom:1px solid var(--line);padding-bottom:14px}
header .title{flex:1 1 480px}
.verdict{font-size:20px;font-weight:700;padding:8px 16px;border-radius:8px;text-transform:uppercase;letter-spacing:.04em;margin-top:20px}
.verdict.conformant{background:var(--pass-bg);color:var(--pass);border:2px solid var(--pass)}
.verdict.nonconformant{background:var(--fail-bg);color:var(--fail);border:2px solid var(--fail)}
.why{margin:8px 0 0;color:var(--adv)}
.verdict.incomplete{background:var(--adv-bg);color:var(--adv);border:2px solid var(--adv)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
.counts{display:flex;gap:10px;flex-wrap:wrap;margin:14px 0 0;width:100%}
.count{border:1px solid var(--line);border-radius:8px;padding:6px 14px;min-width:110px}.count b{display:block;font-size:20px}
.count.pass b{color:var(--pass)}.count.fail b{color:var(--fail)}.count.nv b{color:var(--nv)}.count.adv b{color:var(--adv)}
nav{margin:12px 0;display:flex;gap:16px;flex-wrap:wrap}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
thead th{background:#f6f8fa;position:sticky;top:0}
table.matrix td{text-align:center;width:46px;font-weight:700}table.matrix td:not(.why) a{display:block;color:inherit}
table.matrix td.why{text-align:left;font-weight:normal;width:auto;font-size:12px;color:var(--muted);max-width:460px;word-break:break-word}
table.matrix th[scope=row]{white-space:nowrap;font-weight:normal}
td.pass,.swatch.pass{background:var(--pass-bg);color:var(--pass)}td.fail,.swatch.fail{background:var(--fail);color:#fff}td.nv,.swatch.nv{background:var(--nv-bg);color:var(--nv)}
td.na,.swatch.na{background:repeating-linear-gradient(45deg,#fff,#fff 4px,#f3f4f6 4px,#f3f4f6 8px)}
.swatch{display:inline-block;width:22px;text-align:center;border:1px solid var(--line);border-radius:3px;margin:0 4px 0 12px;font-weight:700}
.legend{color:var(--muted);font-size:13px}
table.list{width:100%;font-size:13px}td.num{text-align:right;white-space:nowrap}.meter{width:160px;height:10px;background:var(--nv-bg);border-radius:5px;overflow:hidden;margin-top:4px}.meter span{display:block;height:100%;background:var(--pass)}table.rules-by-section tr.total td{background:#f6f8fa}table.rules-by-section tr.pass td,table.rules-by-section tr.nv td{background:none}table.rules-by-section tr.fail td{background:var(--fail-bg)}details.all-rules summary{cursor:pointer;margin:12px 0 4px;font-weight:600}table.list tr.fail td{background:var(--fail-bg)}
.badge{display:inline-block;font-size:11px;font-weight:700;text-transform:uppercase;border-radius:10px;padding:1px 8px;white-space:nowrap}
.badge.pass{background:var(--pass-bg);color:var(--pass)}.badge.fail{background:var(--fail);color:#fff}.badge.nv{background:var(--nv-bg);color:var(--nv)}.badge.adv{background:var(--adv-bg);color:var(--adv)}
details.test{border:1px solid var(--line);border-left:5px solid var(--nv);border-radius:6px;margin:4px 0;padding:4px 10px}
details.test.pass{border-left-color:var(--pass)}details.test.fail{border-left-color:var(--fail);background:#fffafa}
details.test>summary{cursor:pointer}.clauses{color:var(--muted);font-size:12px;margin-left:6px}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0}dl.kv dt{color:var(--muted)}dl.kv dd{margin:0}
details.exchange{margin:4px 0}details.exchange>summary{cursor:pointer;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;word-break:break-all}
pre.failure{background:var(--fail-bg);border-color:#ffcecb}
ul.failures li{margin:4px 0}ul.advisories li,ul.warnings li{margin:2px 0}
.warnings{background:var(--adv-bg);border:1px solid #d4a72c;border-radius:6px;padding:8px 14px}
.filters button{font:inherit;border:1px solid var(--line);background:#f6f8fa;border-radius:6px;padding:3px 10px;margin-right:6px;cursor:pointer}.filters button[aria-pressed=true]{background:#0969da;color:#fff;border-color:#0969da}
body[data-filter=fail] details.test:not(.fail),body[data-filter=nv] details.test:not(.nv),body[data-filter=pass] details.test:not(.pass),body[data-filter=adv] details.test:not(.advised){display:none}
footer{margin-top:32px;color:var(--muted);font-size:12px}
@media print{nav,.filters{display:none}details.test{break-inside:avoid}}
`;

const SCRIPT = `
(function(){
  var body=document.body;
  document.querySelectorAll('.filters button[data-filter]').forEach(function(b){
    b.addEventListener('click',function(){
      body.setAttribute('data-filter',b.getAttribute('data-filter'));
      document.querySelectorAll('.filters button[data-filter]').forEach(function(o){o.setAttribute('aria-pressed',String(o===b));});
    });
  });
  function setAll(open){document.querySelectorAll('details.test').forEach(function(d){d.open=open;});}
  var ex=document.getElementById('expand-all');if(ex)ex.addEventListener('click',function(){setAll(true);});
  var co=document.getElementById('collapse-all');if(co)co.addEventListener('click',function(){setAll(false);});
  function reveal(){var id=decodeURIComponent(location.hash.slice(1));if(!id)return;var el=document.getElementById(id);
    if(el&&el.tagName==='DETAILS'){body.setAttribute('data-filter','all');el.open=true;el.scrollIntoView();}}
  window.addEventListener('hashchange',reveal);reveal();
})();
`;

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * `reportSha256`: the SHA-256 of the report.json this page renders (its bytes as written). The page
 * shows it with how to check the page: the certificate binds that hash, and `render` makes the same
 * page again from the same report.json.
 */
export function toHtml(report: Report, reportSha256?: string): string {
  const s = report.summary;
  const names = new Map(report.tests.map((t) => [t.id, shortName(t)]));
  const failed = failedTests(report);
  const expected = expectedFailedTests(report);
  const insecure = securityTests(report);
  const noted = notedTests(report);
  const advised = advisedTests(report);
  const skips = skipReasons(report);
  const pairs = report.coverage.pairs;
  const constraints = report.coverage.constraints;
  const constraintsVerified = constraints.filter((c) => c.outcome === 'passed').length;
  const groups = [...new Set(report.tests.map((t) => t.group))];
  const tests = groups.map((group) => {
    const list = report.tests.filter((t) => t.group === group);
    const counts = `${list.filter((t) => t.outcome === 'passed').length} passed, ${list.filter((t) => t.outcome === 'failed').length} failed, ${list.filter((t) => t.outcome === 'skipped').length} not verified`;
    return h`<h3>${group} <span class="muted">(${counts})</span></h3>${list.map(testDetails)}`;
  });

  const page = h`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="${report.suite.name} ${report.suite.version}">
<title>Conformance report: ${report.verdict} \u2014 ${report.target.baseUrl}</title>
<style>${raw(STYLE)}</style>
</head>
<body data-filter="all">
<header>
<div class="title">
<h1>${report.spec.title} \u2014 conformance report</h1>
<dl class="facts">
<dt>Target</dt><dd><code>${report.target.baseUrl}</code>${report.target.embedded ? ' (embedded reference)' : ''}; provider states: ${report.target.states}</dd>
${report.implementation ? h`<dt>Implementation</dt><dd>${report.implementation.name} ${report.implementation.version} (declared by the operator, not checked by the suite)</dd>` : ''}
<dt>Specification</dt><dd>${report.spec.title}, version ${report.spec.version}</dd>
<dt>Suite</dt><dd>${report.suite.name} ${report.suite.version} (report format ${report.reportVersion})</dd>
<dt>Date</dt><dd>${formatDate(report.startedAt)} \u2013 ${formatDate(report.finishedAt)} (${(report.durationMs / 1000).toFixed(1)} s)</dd>
<dt>Mode</dt><dd>${report.strict ? 'strict: advisories count as failures' : 'standard: advisories are reported, not failed'}</dd>
${reportSha256 ? h`<dt>report.json</dt><dd>SHA-256 <code class="sha">${reportSha256}</code>. To check this page: <code>conformance verify --certificate report.certificate.jws --key PUBLIC_KEY.pem --report report.json</code> (the certificate binds this hash), then <code>conformance render --report report.json --out DIR</code> and compare <code>DIR/report.html</code> with this file: they are identical.</dd>\n` : ''}</dl>
</div>
<div class="verdict ${report.verdict}">${report.verdict}${report.interrupted ? ' (interrupted)' : ''}</div>
${incompleteReason(report) ? h`<p class="why">${incompleteReason(report)}</p>\n` : ''}${conformantScope(report) ? h`<p class="why">${conformantScope(report)} (<a href="#rules-pending">listed</a>)</p>\n` : ''}<div class="counts">
<div class="count pass"><b>${s.passed}</b>passed</div>
<div class="count fail"><b>${s.failed}</b>failed</div>
<div class="count nv"><b>${s.skipped}</b>not verified</div>
<div class="count fail"><b>${securityCount(report)}</b>security findings</div>
<div class="count adv"><b>${s.advisories}</b>advisories</div>
<div class="count"><b>${verifiedPairs(report)}/${pairs.length}</b>endpoint \u00d7 status pairs verified</div>
<div class="count"><b>${constraintsVerified}/${constraints.filter((c) => c.observable !== false).length}</b>${constraintsHeadline(report).replace(/^\d+\/\d+ /, '')}</div>
${report.coverage.ruleSummary ? h`<div class="count"><b>${report.coverage.ruleSummary.verified}/${report.coverage.ruleSummary.observable}</b>observable rules verified${report.coverage.ruleSummary.pending ? `; ${report.coverage.ruleSummary.pending} checked by no test yet` : ''}</div>` : ''}${report.coverage.instanceSummary ? h`<div class="count"><b>${report.coverage.instanceSummary.verified}/${report.coverage.instanceSummary.observable}</b>rule instances verified</div>` : ''}
</div>
</header>
<nav><a href="#security">Security findings (${securityCount(report)})</a><a href="#failures">Nonconformances (${failed.length})</a><a href="#matrix">Coverage matrix</a><a href="#pairs">Pairs</a><a href="#constraints">Field constraints</a><a href="#rules">Rules</a><a href="#advisories">Advisories (${s.advisories})</a><a href="#not-verified">Not verified (${s.skipped})</a><a href="#tests">All tests (${s.total})</a></nav>
${report.warnings.length > 0 ? h`<section id="warnings"><h2>Warnings</h2><ul class="warnings">${report.warnings.map((w) => h`<li>${w}</li>`)}</ul></section>` : ''}
<section id="security"><h2>Security findings (${securityCount(report)})</h2>
<p class="muted">Credentials in the target's answers (a password or its hash, a 2FA secret or recovery code, the reset token, a token of another session or user; never a credential issued to the caller by its own login or reset): a category of its own, apart from the clauses; any makes the verdict nonconformant.</p>
${insecure.length === 0 ? h`<p class="muted">None.</p>` : h`<ul class="failures">${insecure.map((t) => h`<li><a href="#${testAnchor(t.id)}">${t.name}</a><ul>${(t.security ?? []).map((f) => h`<li>${f}</li>`)}</ul></li>`)}</ul>`}
</section>
${noted.length > 0 ? h`<section id="measured"><h2>Measured</h2><ul>${noted.map((t) => h`<li><a href="#${testAnchor(t.id)}">${t.name}</a>: ${(t.notes ?? []).join('; ')}</li>`)}</ul></section>` : ''}
<section id="failures"><h2>${failuresHeading(report, failed.length)}</h2>
${failed.length === 0 ? h`<p class="muted">No test failed${expected.length > 0 ? ' unexpectedly' : ''}.</p>` : h`<ul class="failures">${failed.map((t) => h`<li><a href="#${testAnchor(t.id)}">${t.name}</a> <span class="clauses">${clauseList(t.clauses)}</span><br><span class="muted">${expectedActual(t)}${reasonDetail(t) && schemaPointers(t).length === 0 ? ` \u2014 ${reasonDetail(t)}` : ''}</span></li>`)}</ul>`}
</section>
${report.expectedFailures ? h`<section id="expected-failures"><h2>Expected failures (${expected.length}), listed in <code>${report.expectedFailures.file}</code></h2>
<p>${gateLine(report) ?? ''}</p>
${expected.length === 0 ? '' : h`<ul class="failures">${expected.map((t) => h`<li><a href="#${testAnchor(t.id)}">${t.name}</a> <span class="clauses">${clauseList(t.clauses)}</span><br><span class="muted">${expectedActual(t)} \u2014 expected: ${expectedReason(t)}</span></li>`)}</ul>`}
${report.expectedFailures.problems.length === 0 ? '' : h`<ul>${report.expectedFailures.problems.map((p) => h`<li>${p}</li>`)}</ul>`}
</section>` : ''}
<section id="matrix"><h2>Coverage matrix: every documented endpoint \u00d7 status</h2>
${matrix(pairs, names, new Map(report.tests.map((t) => [t.id, t.outcome])))}
</section>
<section id="pairs"><h2>Endpoint \u00d7 status pairs (${verifiedPairs(report)} of ${pairs.length} verified)</h2>
${pairTable(pairs, names)}
</section>
<section id="constraints"><h2>Field constraints (${constraintsHeadline(report)})</h2>
${constraintTable(constraints, names)}
</section>
${ruleSection(report, names)}
<section id="advisories"><h2>Advisories (${s.advisories})</h2>
<p class="muted">Where the specification is silent the suite reports what it saw as an advisory; an advisory is not a failure${report.strict ? ' (except in strict mode, as in this run)' : ''}.</p>
${advised.length === 0 ? h`<p class="muted">None.</p>` : h`<ul class="advisories">${advised.map((t) => h`<li><a href="#${testAnchor(t.id)}">${t.name}</a><ul>${t.advisories.map((a) => h`<li>${a}</li>`)}</ul></li>`)}</ul>`}
</section>
<section id="not-verified"><h2>Not verified (${s.skipped} skipped tests)</h2>
${skips.length === 0 ? h`<p class="muted">Every test ran.</p>` : h`<ul>${skips.map(({ reason, count }) => h`<li>${count} test${count > 1 ? 's' : ''}: ${reason}</li>`)}</ul>`}
</section>
<section id="tests"><h2>All tests (${s.total})</h2>
<div class="filters"><button type="button" data-filter="all" aria-pressed="true">All</button><button type="button" data-filter="fail" aria-pressed="false">Failed</button><button type="button" data-filter="nv" aria-pressed="false">Not verified</button><button type="button" data-filter="pass" aria-pressed="false">Passed</button><button type="button" data-filter="adv" aria-pressed="false">With advisories</button> <button type="button" id="expand-all">Expand all</button><button type="button" id="collapse-all">Collapse all</button></div>
${tests}
</section>
<footer>Generated by ${report.suite.name} ${report.suite.version} from report.json (report format ${report.reportVersion}). Secrets in requests and responses are redacted.</footer>
<script>${raw(SCRIPT)}</script>
</body>
</html>
`;
  return page.value;
}
