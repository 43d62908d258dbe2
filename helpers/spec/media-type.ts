/**
 * Section 1.2: responses are JSON. An answer labelled application/json or any `+json` type
 * (application/problem+json, application/vnd.api+json), with parameters, is one; read by the suite's
 * checks and by `conformance proxy` alike.
 */
export const JSON_MEDIA_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;
