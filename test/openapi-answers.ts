import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { openApiDocument } from '../helpers/spec/openapi.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOCUMENT_ID = 'https://account-api-conformance.local/openapi.json';

/**
 * Judges real answers against the generated OpenAPI document: the response schema the document
 * gives for the answer's operation and status. Answers with a status the document does not list
 * (the specification is silent on them) are counted apart.
 */
export class OpenApiAnswers {
  private readonly ajv: Ajv2020;
  private readonly routes: { method: string; path: string; pattern: RegExp; responses: Record<string, any> }[] = [];
  private readonly validators = new Map<string, ValidateFunction>();
  validated = 0;
  readonly pairs = new Set<string>();
  readonly undocumented = new Map<string, number>();
  readonly problems: string[] = [];

  constructor(document: any = openApiDocument()) {
    this.ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: document.components });
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
      for (const [method, op] of Object.entries(methods)) this.routes.push({ method: method.toUpperCase(), path, pattern, responses: op.responses });
    }
    // Literal segments win over parameters (/balances/nft is not /balances/{asset}).
    this.routes.sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${ref}` });
      this.validators.set(ref, validate);
    }
    return validate;
  }

  /** Records one answer; never throws (it runs inside the reference's reply). */
  check(method: string, url: string, status: number, payload: string): void {
    try {
      this.judge(method, url, status, payload);
    } catch (error) {
      this.problems.push(`${method} ${url} ${status}: ${(error as Error).message}`);
    }
  }

  /** One answer: `url` as requested (query ignored), the status sent and its body text. */
  private judge(method: string, url: string, status: number, payload: string): void {
    const path = url.split('?')[0]!;
    if (!path.startsWith('/api/v1/')) return; // the provider-state hook is not the interface
    const route = this.routes.find((r) => r.method === method && r.pattern.test(path));
    const key = `${method} ${route?.path ?? path} ${status}`;
    const response = route?.responses[String(status)];
    if (!response) {
      this.undocumented.set(key, (this.undocumented.get(key) ?? 0) + 1);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      this.problems.push(`${key}: the answer is not JSON`);
      return;
    }
    const validate = this.validator(response.content['application/json'].schema.$ref);
    this.validated++;
    this.pairs.add(key);
    if (!validate(body)) this.problems.push(`${key}: ${this.ajv.errorsText(validate.errors)}`);
  }
}
