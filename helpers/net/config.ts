import { existsSync, readFileSync, statSync } from 'node:fs';
import { MAX_CONFIG_FILE_BYTES } from '../spec/bounded.js';
import { resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { z } from 'zod';
import { withoutCredentials } from './redact.js';
import { ConfigError, DEFAULT_MAX_RESPONSE_BYTES } from './config-basics.js';

export { ConfigError, DEFAULT_MAX_RESPONSE_BYTES };

const httpUrl = z
  .string()
  .trim()
  .url({ message: 'must be an http(s) URL, for example http://127.0.0.1:8080' })
  .refine((value) => /^https?:\/\//i.test(value), { message: 'must start with http:// or https://' })
  .transform((value) => value.replace(/\/+$/, ''));

/** STATES_URL is called exactly as given: a trailing slash is part of a URL. */
const exactHttpUrl = z
  .string()
  .trim()
  .url({ message: 'must be an http(s) URL, for example http://127.0.0.1:8080/states' })
  .refine((value) => /^https?:\/\//i.test(value), { message: 'must start with http:// or https://' });

const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const fileThatExists = z.string().refine((path) => existsSync(path), { message: 'names a file that does not exist' });

const positiveInt = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? fallback : Number(value)),
    z.number({ message: `must be a whole number from ${min} to ${max}` }).int(`must be a whole number from ${min} to ${max}`).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
  );

const TRUE = ['true', '1', 'yes'];
const FALSE = ['false', '0', 'no', ''];
const bool = z.preprocess(
  (value) => (value === undefined || typeof value === 'boolean' ? Boolean(value) : TRUE.includes(String(value)) ? true : FALSE.includes(String(value)) ? false : value),
  z.boolean({ message: 'must be true or false' }),
);

const caFile = z.string().superRefine((path, ctx) => {
  if (!existsSync(path)) ctx.addIssue({ code: 'custom', message: 'names a file that does not exist' });
  else if (statSync(path).size > MAX_CONFIG_FILE_BYTES) ctx.addIssue({ code: 'custom', message: `is larger than ${MAX_CONFIG_FILE_BYTES} bytes; the suite reads no CA file that large` });
  else if (!/-----BEGIN CERTIFICATE-----/.test(readFileSync(path, 'latin1'))) {
    ctx.addIssue({ code: 'custom', message: 'must be a PEM file holding one or more certificates (-----BEGIN CERTIFICATE-----)' });
  }
});

const requestsPerSecond = z.preprocess(
  (value) => Number(value),
  z.number({ message: 'must be a number of requests per second from 0.1 to 1000' }).min(0.1, 'must be at least 0.1').max(1000, 'must be at most 1000'),
);

/**
 * What the operator declares the target to be, "NAME VERSION" (`--implementation`, IMPLEMENTATION): the
 * last word is the version, the words before it the name. Recorded in the report and claimed by a
 * certificate as declared by the operator (the suite cannot check it). One line of visible text.
 */
export function parseImplementation(text: string): { name: string; version: string } | undefined {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const at = trimmed.lastIndexOf(' ');
  if (at <= 0 || trimmed.length > 200 || /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/.test(trimmed)) return undefined;
  return { name: trimmed.slice(0, at), version: trimmed.slice(at + 1) };
}

const implementation = z
  .string()
  .refine((value) => parseImplementation(value) !== undefined, { message: 'must be the implementation\'s name and version, "NAME VERSION" (for example "Acme Accounts 2.3.1"): one line of visible text, at most 200 characters' })
  .transform((value) => parseImplementation(value)!);

/** Headers the suite sets itself, per request: an extra header may not replace them. */
export const RESERVED_HEADERS = ['authorization', 'token', 'content-type', 'accept'];
/** Headers of the connection and the message framing: the HTTP client sets them, a gateway never needs them. */
export const CONNECTION_HEADERS = ['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'expect', 'proxy-connection'];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A field value: visible characters, spaces and tabs; no other control character (RFC 9110, 5.5). */
const HEADER_VALUE = /^[^\x00-\x08\x0a-\x1f\x7f]+$/;
const titleCase = (name: string) => name.replace(/(^|-)\w/g, (c) => c.toUpperCase());

/** EXTRA_HEADERS: one `Name: value` a line. Values are secrets: no message quotes them. */
const extraHeaders = z.string().transform((text, ctx) => {
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean)) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!HEADER_NAME.test(name)) {
      ctx.addIssue({ code: 'custom', message: `has an entry that is not "Name: value" (write --header 'x-api-key: ...')` });
      return z.NEVER;
    }
    if (RESERVED_HEADERS.includes(name.toLowerCase())) {
      ctx.addIssue({ code: 'custom', message: `may not set ${name}: the suite sets ${RESERVED_HEADERS.map(titleCase).join(', ')} itself on each request` });
      return z.NEVER;
    }
    if (CONNECTION_HEADERS.includes(name.toLowerCase())) {
      ctx.addIssue({ code: 'custom', message: `may not set ${name}: the HTTP client sets the connection and framing headers (${CONNECTION_HEADERS.map(titleCase).join(', ')}) itself; pass only what the gateway asks for (write --header 'x-api-key: ...')` });
      return z.NEVER;
    }
    const value = line.slice(colon + 1).trim();
    if (!HEADER_VALUE.test(value)) {
      ctx.addIssue({ code: 'custom', message: `has ${name} with ${value === '' ? 'an empty value' : 'a control character in its value'}; a header value is one line of visible text (write --header '${name}: ...')` });
      return z.NEVER;
    }
    headers[name.toLowerCase()] = value;
  }
  return headers;
});

/** The road to target and hook a command takes (CA_FILE / --ca, EXTRA_HEADERS / --header): `run` and `states export` alike. */
const roadShape = {
  CA_FILE: optional(caFile),
  EXTRA_HEADERS: z.preprocess((value) => (value === undefined ? '' : value), extraHeaders),
};

export const configSchema = z
  .object({
    BASE_URL: optional(httpUrl),
    STATES_URL: optional(exactHttpUrl),
    STATES_TOKEN: optional(z.string().min(1)),
    STATES_FILE: optional(fileThatExists),
    JWT_PLATFORM_ID: optional(z.string().min(1)),
    JWT_PRIVATE_KEY_FILE: optional(fileThatExists),
    REPORT_DIR: z.preprocess((value) => (value === undefined || value === '' ? 'reports' : value), z.string()),
    REQUEST_TIMEOUT_MS: positiveInt(100, 600_000, 10_000),
    MAX_RESPONSE_BYTES: positiveInt(1024, 100 * 1024 * 1024, DEFAULT_MAX_RESPONSE_BYTES),
    MAX_CONCURRENCY: positiveInt(1, 64, 8),
    STRICT: bool,
    FAIL_ON_INCOMPLETE: bool,
    /** A JSON or YAML file of expected failures ({ test | rule, reason, until }): the gate passes over them (cli/expected-failures.ts). */
    EXPECTED_FAILURES: optional(fileThatExists),
    /** Endpoint groups to run, separated by commas or spaces (what --group names, repeatable). */
    GROUP: optional(z.string().trim()),
    BRUTE_FORCE: bool,
    ...roadShape,
    MAX_REQUESTS_PER_SECOND: optional(requestsPerSecond),
    IMPLEMENTATION: optional(implementation),
    /** The seed the value classes are drawn from (helpers/arrange/draw.ts); a fresh one each run unless given, to replay a run. */
    SEED: optional(z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or - (the seed a report.json records)')),
  })
  .superRefine((config, ctx) => {
    if (config.STATES_URL && config.STATES_FILE) {
      ctx.addIssue({ code: 'custom', path: ['STATES_FILE'], message: 'cannot be combined with STATES_URL; choose one provider-state transport' });
    }
    if (Boolean(config.JWT_PLATFORM_ID) !== Boolean(config.JWT_PRIVATE_KEY_FILE)) {
      ctx.addIssue({ code: 'custom', path: [config.JWT_PLATFORM_ID ? 'JWT_PRIVATE_KEY_FILE' : 'JWT_PLATFORM_ID'], message: 'is required when the other of JWT_PLATFORM_ID / JWT_PRIVATE_KEY_FILE is set' });
    }
    if (!config.BASE_URL && (config.STATES_URL || config.STATES_FILE)) {
      ctx.addIssue({ code: 'custom', path: ['BASE_URL'], message: 'is required when STATES_URL or STATES_FILE is set (without BASE_URL the embedded reference provides its own states)' });
    }
  });

export type Config = z.output<typeof configSchema>;
export type ConfigInput = Partial<Record<keyof Config, string>>;

/** Flags of `conformance run` and the variables they override. */
export const FLAG_TO_VARIABLE: Readonly<Record<string, keyof Config>> = {
  '--target': 'BASE_URL',
  '--states': 'STATES_URL',
  '--states-token': 'STATES_TOKEN',
  '--states-file': 'STATES_FILE',
  '--report-dir': 'REPORT_DIR',
  '--timeout': 'REQUEST_TIMEOUT_MS',
  '--concurrency': 'MAX_CONCURRENCY',
  '--strict': 'STRICT',
  '--fail-on-incomplete': 'FAIL_ON_INCOMPLETE',
  '--expected-failures': 'EXPECTED_FAILURES',
  '--brute-force': 'BRUTE_FORCE',
  '--ca': 'CA_FILE',
  '--header': 'EXTRA_HEADERS',
  '--rate': 'MAX_REQUESTS_PER_SECOND',
  '--implementation': 'IMPLEMENTATION',
  '--seed': 'SEED',
};

/**
 * Resolves the configuration: command-line overrides, then the process environment, then `.env`
 * in the working directory. Throws ConfigError naming the first wrong variable.
 */
export function loadConfig(overrides: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env, dotenvPath = '.env'): Config {
  return parsed(configSchema, overrides, env, dotenvPath);
}

const roadSchema = z.object(roadShape);
export type RoadConfig = z.output<typeof roadSchema>;

/**
 * The road variables alone (CA_FILE, EXTRA_HEADERS), from the same places and parsed and refused exactly as
 * loadConfig does: for `states export`, which reaches target and hook without the rest of a run's configuration
 * (a .env naming the STATES_FILE about to be exported must not stop it).
 */
export function loadRoad(overrides: Partial<Record<keyof RoadConfig, string>> = {}, env: NodeJS.ProcessEnv = process.env, dotenvPath = '.env'): RoadConfig {
  return parsed(roadSchema, overrides, env, dotenvPath);
}

/** Flags over the environment over `.env`, parsed by `schema`; the first wrong variable a ConfigError (a secret's value never quoted). */
function parsed<S extends z.ZodObject>(schema: S, overrides: Record<string, string | undefined>, env: NodeJS.ProcessEnv, dotenvPath: string): z.output<S> {
  const fromFile = existsSync(dotenvPath) ? parseDotenv(readFileSync(dotenvPath)) : {};
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) raw[key] = overrides[key] ?? env[key] ?? fromFile[key];
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'configuration');
    const flag = Object.entries(FLAG_TO_VARIABLE).find(([, v]) => v === variable)?.[0];
    const given = raw[variable];
    const shown = given === undefined || /TOKEN|KEY|HEADERS/.test(variable) ? '' : ` (got "${withoutCredentials(given)}")`;
    throw new ConfigError(`configuration error: ${variable} ${issue.message}${shown}; set it in .env or the environment${flag ? ` or pass ${flag}` : ''} (see .env.example)`);
  }
  return result.data;
}

/** The road to target and hook that the configuration names: CAs to trust besides the system's, and a gateway's headers. */
export function roadOf(config: RoadConfig): { caFile?: string; headers?: Record<string, string> } {
  return { ...(config.CA_FILE ? { caFile: resolve(config.CA_FILE) } : {}), ...(Object.keys(config.EXTRA_HEADERS).length > 0 ? { headers: config.EXTRA_HEADERS } : {}) };
}
