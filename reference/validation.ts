import { ERRORS, fail } from './errors.js';

/**
 * A small validator with Laravel's rule names and messages, so the reference answers 422 as the
 * platform does: `{ message, errors: { field: [messages] } }`.
 */

export type Rule =
  | { rule: 'required' }
  | { rule: 'nullable' }
  | { rule: 'string' }
  | { rule: 'email' }
  | { rule: 'max'; value: number; unit?: LengthUnit }
  | { rule: 'min'; value: number; unit?: LengthUnit }
  | { rule: 'between'; min: number; max: number }
  | { rule: 'digits'; value: number }
  | { rule: 'numeric' }
  | { rule: 'alpha_num' }
  | { rule: 'in'; values: readonly string[] }
  | { rule: 'regex'; pattern: RegExp; message: string }
  | { rule: 'custom'; check: (value: unknown, input: Record<string, unknown>) => string | undefined };

export type Rules = Record<string, Rule[]>;

/**
 * How a length is counted. Section 8 counts characters (code points); `utf8-bytes` exists only so a
 * mutant can count bytes instead, the deviation of a server that measures the encoded string.
 */
export type LengthUnit = 'characters' | 'utf8-bytes' | 'graphemes' | 'utf16-units';

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `graphemes` (user-perceived characters, UAX #29) exists for the allowed reading `r6.lengths-in-graphemes`. */
function lengthOf(text: string, unit: LengthUnit = 'characters'): number {
  if (unit === 'graphemes') return [...GRAPHEMES.segment(text)].length;
  // `utf16-units` (a Java/.NET string's length) exists for the allowed reading `r8.lengths-in-utf16-units`.
  if (unit === 'utf16-units') return text.length;
  return unit === 'utf8-bytes' ? Buffer.byteLength(text, 'utf8') : [...text].length;
}

const human = (field: string) => field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase();

// Laravel's `email` rule in its default (RFC) mode accepts local@domain; the reference also wants a dot-free-safe domain.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function present(value: unknown): boolean {
  return !(value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0));
}

function checkRule(field: string, value: unknown, rule: Rule, input: Record<string, unknown>): string | undefined {
  const name = human(field);
  const text = typeof value === 'string' ? value : undefined;
  switch (rule.rule) {
    case 'required':
      return present(value) ? undefined : `The ${name} field is required.`;
    case 'nullable':
      return undefined;
    case 'string':
      return typeof value === 'string' ? undefined : `The ${name} field must be a string.`;
    case 'email':
      return text !== undefined && EMAIL.test(text) ? undefined : `The ${name} field must be a valid email address.`;
    case 'max':
      return text !== undefined && lengthOf(text, rule.unit) > rule.value ? `The ${name} field must not be greater than ${rule.value} characters.` : undefined;
    case 'min':
      return text !== undefined && lengthOf(text, rule.unit) < rule.value ? `The ${name} field must be at least ${rule.value} characters.` : undefined;
    case 'between':
      return text !== undefined && ([...text].length < rule.min || [...text].length > rule.max) ? `The ${name} field must be between ${rule.min} and ${rule.max} characters.` : undefined;
    case 'digits':
      return text !== undefined && new RegExp(`^[0-9]{${rule.value}}$`).test(text) ? undefined : `The ${name} field must be ${rule.value} digits.`;
    case 'numeric':
      return text !== undefined && /^-?[0-9]+(\.[0-9]+)?$/.test(text) ? undefined : `The ${name} field must be a number.`;
    case 'alpha_num':
      return text !== undefined && /^[\p{L}\p{N}]+$/u.test(text) ? undefined : `The ${name} field must only contain letters and numbers.`;
    case 'in':
      return text !== undefined && rule.values.includes(text) ? undefined : `The selected ${name} is invalid.`;
    case 'regex':
      return text !== undefined && rule.pattern.test(text) ? undefined : rule.message.replace(':attribute', name);
    case 'custom':
      return rule.check(value, input);
  }
}

/** Validates `input` against `rules` and collects every failing field's first message, as Laravel does (bail per field). */
export function validationErrors(input: Record<string, unknown>, rules: Rules): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [field, fieldRules] of Object.entries(rules)) {
    const value = input[field];
    const nullable = fieldRules.some((r) => r.rule === 'nullable');
    const required = fieldRules.some((r) => r.rule === 'required');
    if (!present(value) && !required) {
      if (value === undefined || value === null || nullable) continue;
    }
    for (const rule of fieldRules) {
      const message = checkRule(field, value, rule, input);
      if (message) {
        errors[field] = [message];
        break;
      }
    }
  }
  return errors;
}

/** Validates and answers 422 on the first failure set. */
/** Allowed reading (reading round 7, r7.unknown-body-members-refused): members a body does not name are refused 422, each keyed by its name (serde's deny_unknown_fields). */
export function refuseUnknownMembers(body: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  if (unknown.length > 0) fail(ERRORS.validation(Object.fromEntries(unknown.map((key) => [key, [`The ${key} field is prohibited.`]]))));
}

export function validate(input: Record<string, unknown>, rules: Rules): void {
  const errors = validationErrors(input, rules);
  if (Object.keys(errors).length > 0) fail(ERRORS.validation(errors));
}

export const rules = {
  required: { rule: 'required' } as Rule,
  nullable: { rule: 'nullable' } as Rule,
  string: { rule: 'string' } as Rule,
  email: { rule: 'email' } as Rule,
  numeric: { rule: 'numeric' } as Rule,
  alphaNum: { rule: 'alpha_num' } as Rule,
  max: (value: number, unit?: LengthUnit): Rule => ({ rule: 'max', value, ...(unit ? { unit } : {}) }),
  min: (value: number, unit?: LengthUnit): Rule => ({ rule: 'min', value, ...(unit ? { unit } : {}) }),
  between: (min: number, max: number): Rule => ({ rule: 'between', min, max }),
  digits: (value: number): Rule => ({ rule: 'digits', value }),
  in: (values: readonly string[]): Rule => ({ rule: 'in', values }),
  regex: (pattern: RegExp, message: string): Rule => ({ rule: 'regex', pattern, message }),
  custom: (check: (value: unknown, input: Record<string, unknown>) => string | undefined): Rule => ({ rule: 'custom', check }),
};
