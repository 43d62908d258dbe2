/**
 * The seam through which a mutant changes the reference: one named deviation that the modules
 * honour, and/or a transform of one route's response body. A mutant never copies the reference.
 */
export interface ResponseTransform {
  /** "METHOD /api/v1/..." as the route is registered (fastify's `:param` form is translated from `{param}`). */
  route: string;
  /** Only answers with this status; all statuses when absent. */
  status?: number;
  apply(body: any, status: number): { body?: unknown; status?: number } | void;
}

export interface Mutation {
  deviation?: string;
  transform?: ResponseTransform;
  /** Every answer of the interface (not the provider-state hook) is labelled with this Content-Type. */
  contentType?: string;
}
