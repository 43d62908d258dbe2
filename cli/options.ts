import type { ParseArgsConfig } from 'node:util';
import { SELECTION_HELP } from './selection.js';

/**
 * The options of `conformance run`: the target, its provider states, the road to it (CA, headers,
 * rate) and the reports. Exported so other commands that talk to a target reuse the same names.
 */
export const RUN_OPTIONS = {
  target: { type: 'string' },
  states: { type: 'string' },
  'states-token': { type: 'string' },
  'states-file': { type: 'string' },
  'report-dir': { type: 'string' },
  timeout: { type: 'string' },
  concurrency: { type: 'string' },
  strict: { type: 'boolean' },
  'fail-on-incomplete': { type: 'boolean' },
  'expected-failures': { type: 'string' },
  'brute-force': { type: 'boolean' },
  ca: { type: 'string' },
  header: { type: 'string', multiple: true },
  rate: { type: 'string' },
  implementation: { type: 'string' },
  seed: { type: 'string' },
  group: { type: 'string', multiple: true },
  mutant: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

export const RUN_HELP = `usage: conformance run [options]
  run the suite (against BASE_URL, or the embedded reference when it is unset)
            --target URL        the target's base URL, with the gateway's path prefix if any (BASE_URL)
            --states URL        the provider-state hook, called exactly as given (STATES_URL)
            --states-token T    the hook's bearer token (STATES_TOKEN)
            --states-file FILE  static provider states (STATES_FILE)
            --report-dir DIR    where reports go (REPORT_DIR, default reports/)
            --timeout MS        per-request timeout (REQUEST_TIMEOUT_MS)
            --concurrency N     requests in flight per worker (MAX_CONCURRENCY)
            --strict            advisories count as failures (STRICT)
            --fail-on-incomplete  the verdict incomplete (a test or a documented pair not verified)
                                exits 1, for a gate that must verify everything (FAIL_ON_INCOMPLETE)
            --expected-failures FILE  known failures, JSON or YAML entries { test | rule, reason, until }:
                                reported apart with their reasons, the verdict unchanged, exit 0 when every
                                failure was expected; exit 1 when a listed test passes ("remove it") or an
                                entry is past its until date; exit 2 for an entry naming no test of the suite
                                (EXPECTED_FAILURES)
            --brute-force       also search for the brute-force threshold (425) with at most 50 failed logins
                                of a fresh account and report it (BRUTE_FORCE; off: it loads the target; without
                                it the restriction is provoked only where state user.brute-force gives the threshold)
            --ca FILE           PEM file of CA certificates to trust for target and hook (CA_FILE)
            --header 'N: v'     extra header on every request to target and hook, e.g. a gateway's
                                x-api-key (repeatable; EXTRA_HEADERS, one a line); values never printed
            --rate N            at most N requests per second (MAX_REQUESTS_PER_SECOND)
            --implementation 'NAME VERSION'  what the target is, as you declare it (IMPLEMENTATION): recorded
                                in the reports and, marked as declared by the operator, in a certificate
            --seed S            draw the value classes (currencies, swift, iban, expiries) from seed S, to replay
                                a run: report.json records each run's seed (SEED; default a fresh one)
            --group NAME        only this endpoint group (repeatable; GROUP, comma-separated)
            --mutant NAME       run against a mutant of the embedded reference (see reference/mutants/)
            --failed            rerun only the tests that failed or were not verified in REPORT_DIR's last
                                report.json (by test id); exit 2 when there is none or nothing to rerun
${SELECTION_HELP}
            examples: conformance run --failed
                      conformance run --clause 4.10 --endpoint 'POST /api/v1/user/{user}/bank' --grep iban
            HTTP_PROXY, HTTPS_PROXY and NO_PROXY are honoured (loopback is never proxied)
            writes report.json, junit.xml, summary.md and report.html (in GitHub Actions also
            ::error annotations and the job summary); keeps the last report.json as report.previous.json
            exit 0 every test passed (skips listed), 1 a nonconformance (or, with --fail-on-incomplete, the
            verdict incomplete), 2 configuration error or target unreachable or not the interface,
            130 interrupted (Ctrl-C or SIGTERM)`;
