import { describe, expect, it } from 'vitest';
import { curlCommand, reproductionSteps } from '../reporting/curl.js';
import { scrubRecords } from '../reporting/scrub.js';
import { failureLines } from '../reporting/terminal.js';
import { exchange, record } from './reporting-fixtures.js';

const login = exchange({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/authenticate', headers: { 'content-type': 'application/json' }, body: { email: 'a@example.test', password: '[REDACTED]' } });
const reset = exchange({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/user/reset-password', headers: { authorization: '[REDACTED]' }, body: { token: '[REDACTED]' } });
const oldLogin = exchange({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/authenticate?again', headers: {}, body: { email: 'a@example.test', password: '[REDACTED]' } }, { status: 200, headers: {}, body: {} });
const logout = exchange({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/user/logout', headers: { authorization: '[REDACTED]' } });

describe('reproductions that reproduce', () => {
  // The reset was the last answer whose status was checked; the login after it failed the test; the logout is its clean-up.
  const multiStep = record('refuses the old password after a reset', { outcome: 'failed', exchanges: [login, reset, oldLogin, logout], checkedExchange: 1, failedAt: 2 });

  it('prints the requests of a failing multi-step test in order up to the failing one, never the clean-up', () => {
    const { commands } = reproductionSteps(multiStep);
    expect(commands).toHaveLength(3);
    expect(commands[0]).toContain('/api/v1/authenticate ');
    expect(commands[1]).toContain('/reset-password');
    expect(commands[2]).toContain('/api/v1/authenticate?again');
  });

  it('prints the exact reproduction under every failure, and where each secret comes from', () => {
    const { lines, variables } = failureLines(multiStep);
    expect(lines.at(-1)).toBe(`      reproduce exactly: conformance run --id ${multiStep.id}`);
    expect(variables.sort()).toEqual(['ACCESS_TOKEN', 'PASSWORD', 'TOKEN']);
    const single = failureLines(record('answers 200 with the list', { outcome: 'failed' }));
    expect(single.lines.at(-1)).toMatch(/^ {6}reproduce exactly: conformance run --id get-user-user-bank-answers-200-with-the-list$/);
    // A run against a mutant of the embedded reference is reproduced against that mutant (issue 31).
    expect(failureLines(multiStep, { mutant: 'banks-used-bank-deletable' }).lines.at(-1)).toBe(`      reproduce exactly: conformance run --id ${multiStep.id} --mutant banks-used-bank-deletable`);
  });

  it('gives each password of a reset flow its own variable: $PASSWORD for the old one, $NEW_PASSWORD for the one the reset sets (issue 31)', () => {
    const resetTo = exchange({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/user/reset-password', headers: { 'content-type': 'application/json' }, body: { email: 'a@example.test', token: '[REDACTED]', password: '[REDACTED]' } });
    resetTo.request.variables = { password: 'NEW_PASSWORD' };
    const withNew = exchange({ method: 'POST', url: 'http://127.0.0.1:9/api/v1/authenticate', headers: { 'content-type': 'application/json' }, body: { email: 'a@example.test', password: '[REDACTED]' } });
    withNew.request.variables = { password: 'NEW_PASSWORD' };
    // Through the report's scrub, as every record is written and printed: the variable stays under its body key `password`.
    const [flow] = scrubRecords([record('accepts the new password after a reset', { outcome: 'failed', exchanges: [login, resetTo, withNew], failedAt: 2 })]);
    const { commands, variables } = reproductionSteps(flow!);
    expect(commands[0]).toContain(`"password":"'"$PASSWORD"'"`);
    expect(commands[1]).toContain(`"password":"'"$NEW_PASSWORD"'"`);
    expect(commands[2]).toContain(`"password":"'"$NEW_PASSWORD"'"`);
    expect(variables.sort()).toEqual(['NEW_PASSWORD', 'PASSWORD', 'TOKEN']);
    expect(failureLines(flow!).lines.join('\n')).toContain('$NEW_PASSWORD');
  });

  it("drops host, content-length and the hop-by-hop headers a proxy recorded (curl sets its own)", () => {
    const proxied = exchange({ method: 'POST', headers: { host: 'upstream:8080', 'content-length': '999', connection: 'keep-alive, x-hop', 'x-hop': '1', 'transfer-encoding': 'chunked', 'x-request-id': 'r-1' }, body: '{}' });
    const { command } = curlCommand(proxied);
    expect(command).not.toMatch(/host:|content-length|connection|x-hop|transfer-encoding/i);
    expect(command).toContain("-H 'x-request-id: r-1'");
  });
});
