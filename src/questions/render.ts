/**
 * Rendering a marker into the wire request it stands for, and the digest that pins an answer to
 * the exact question it answers (method, message, schema or sampling parameters).
 */
import type { InputRequest, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { inputRequired } from '@modelcontextprotocol/server';
import canonicalize from 'canonicalize';

import { McpResolveError } from '../errors.js';
import { utf8 } from '../state/bytes.js';
import { defaultPrimitives } from '../state/primitives.js';
import { formProperty } from './forms.js';
import type { Ask, AskKind, ElicitUrl } from './markers.js';
import { askKind } from './markers.js';
import { patternProblem, patternsOf } from '../form/patterns.js';
import { defaultElicitationId } from './urlQuestion.js';

/** A question ready to send: the wire request, its kind, and the digest answers are pinned to. */
export interface RenderedQuestion {
  readonly kind: AskKind;
  readonly request: InputRequest;
  readonly digest: string;
}

/**
 * A question as every part of the questions layer handles it: the key its answer travels under
 * (`inputRequests`/`inputResponses`, the ledger), the label naming its asker in messages, the
 * marker it came from, and its rendering.
 */
export interface Question {
  readonly key: string;
  readonly label: string;
  readonly ask: Ask;
  readonly rendered: RenderedQuestion;
  /** A decline or cancel of this question ends the call, so nothing is asked after it (legacy pushes stop). */
  readonly declineEndsCall?: boolean;
}

/**
 * `request` as a 2026-07-28 `inputRequests` entry carries it: that revision dropped the URL-mode
 * `elicitationId` (and the completion notification keyed by it), so it is not sent; everything
 * else is unchanged.
 */
export function onModernWire(request: InputRequest): InputRequest {
  if (request.method !== 'elicitation/create' || request.params.mode !== 'url') return request;
  const { elicitationId: _dropped, ...params } = request.params;
  return { ...request, params: params as typeof request.params };
}

/** The `inputRequests` of an `input_required` result asking `questions`, by key, in order. */
export function inputRequestsOf(questions: readonly Question[]): Record<string, InputRequest> {
  return Object.fromEntries(questions.map((question) => [question.key, question.rendered.request]));
}

type WireSchema = Extract<InputRequest, { method: 'elicitation/create' }>['params'] extends infer P
  ? P extends { requestedSchema: infer S }
    ? S
    : never
  : never;

// Cache: the wire schema rendered from each schema object, once; a WeakMap, so an entry goes with its
// schema. Reusing the identical object also keeps the SDK's validator caches (keyed by object
// identity) from growing on every call.
const wireSchemas = new WeakMap<StandardSchemaWithJSON, WireSchema>();

/**
 * A schema's own JSON Schema when it is a flat object form (each property a primitive, an enum, a
 * titled `oneOf`/`anyOf` of constants, or an array of those): the shapes elicitation allows that the
 * SDK's converter does not render, such as SEP-1330 titled enums written with `fromJsonSchema` or as a
 * zod union of titled literals (rewritten into the SEP-1330 shape by `formProperty`).
 */
function flatFormOf(schema: StandardSchemaWithJSON): WireSchema | undefined {
  const json = schema['~standard'].jsonSchema?.input({ target: 'draft-2020-12' });
  if (json === undefined || json.type !== 'object' || typeof json.properties !== 'object' || json.properties === null) {
    return undefined;
  }
  const properties = Object.values(json.properties as Record<string, unknown>);
  const flat = properties.every(
    (property) =>
      typeof property === 'object' && property !== null && !('properties' in property) && !('$ref' in property),
  );
  if (!flat) return undefined;
  const { $schema: _dialect, properties: rendered, ...wire } = json;
  const formProperties = Object.fromEntries(
    Object.entries(rendered as Record<string, Record<string, unknown>>).map(([name, property]) => [
      name,
      formProperty(property),
    ]),
  );
  return { ...wire, properties: formProperties } as WireSchema;
}

function wireSchemaOf(schema: StandardSchemaWithJSON, label: string): WireSchema {
  let wire = wireSchemas.get(schema);
  if (wire === undefined) {
    try {
      const request = inputRequired.elicit({ message: '', requestedSchema: schema });
      if (request.method === 'elicitation/create' && 'requestedSchema' in request.params)
        wire = request.params.requestedSchema;
    } catch (error) {
      wire = flatFormOf(schema);
      if (wire === undefined) {
        throw new McpResolveError(
          'invalid_declaration',
          `Resolver '${label}' asks with a schema elicitation cannot carry: ${error instanceof Error ? error.message : String(error)}`,
          { data: { kind: 'question', name: label, field: 'schema' }, cause: error },
        );
      }
    }
    if (wire === undefined) {
      throw new McpResolveError(
        'invalid_declaration',
        `Resolver '${label}' asks with a schema that did not render as a form.`,
        { data: { kind: 'question', name: label, field: 'schema' } },
      );
    }
    refuseNonLinearPatterns(wire, label);
    wireSchemas.set(schema, wire);
  }
  return wire;
}

/** Refuses a form whose `pattern` RE2 cannot match in linear time (a backreference, a lookaround), naming the property. */
function refuseNonLinearPatterns(wire: WireSchema, label: string): void {
  for (const [name, pattern] of patternsOf(wire)) {
    const problem = patternProblem(pattern);
    if (problem === undefined) continue;
    throw new McpResolveError(
      'invalid_declaration',
      `Resolver '${label}' asks with a pattern that cannot be matched in linear time (property '${name}': ${problem}). Patterns are matched by RE2, which never backtracks: write it without backreferences or lookaround.`,
      { data: { kind: 'question', name: label, field: 'schema' } },
    );
  }
}

/**
 * Digests of recent canonical requests: a call's questions are digested again on every round it
 * asks or answers them. Bounded by the text it holds; forgotten all at once when full.
 */
const recentDigests = new Map<string, string>();
let recentDigestChars = 0;
const RECENT_DIGEST_CHARS = 1 << 20;

/** The stable digest of a wire request from its RFC 8785 canonical JSON (SHA-256, base64url). */
function digestOf(canonicalJson: string): string {
  const known = recentDigests.get(canonicalJson);
  if (known !== undefined) return known;
  const primitives = defaultPrimitives(); // node:crypto where present, else @noble/hashes: same bytes
  const digest = primitives.encodeBase64url(primitives.sha256([utf8(canonicalJson)]));
  if (recentDigestChars + canonicalJson.length > RECENT_DIGEST_CHARS) {
    recentDigests.clear();
    recentDigestChars = 0;
  }
  if (canonicalJson.length <= RECENT_DIGEST_CHARS) {
    recentDigests.set(canonicalJson, digest);
    recentDigestChars += canonicalJson.length;
  }
  return digest;
}

// Cache: the canonical JSON of each wire schema, made once (the schema is rendered once per schema
// object); a WeakMap, so an entry goes with its schema.
const canonicalSchemas = new WeakMap<WireSchema, string>();

/**
 * The canonical JSON of a form question's request, `{ method, params: { mode, message, requestedSchema } }`
 * with its keys in RFC 8785 order, the schema's part made once per schema: the same text
 * `canonicalize` gives for the whole request, without walking the schema on every round.
 */
function canonicalFormRequest(message: string, schema: WireSchema): string {
  let canonicalSchema = canonicalSchemas.get(schema);
  if (canonicalSchema === undefined) {
    canonicalSchema = canonicalize(schema) ?? '';
    canonicalSchemas.set(schema, canonicalSchema);
  }
  return `{"method":"elicitation/create","params":{"message":${canonicalize(message) ?? ''},"mode":"form","requestedSchema":${canonicalSchema}}}`;
}

/**
 * `question` with its elicitation id when it is a URL question declared without one: the call's
 * default id for its key (see {@link defaultElicitationId}), in the marker (the consumer's value) and
 * in the request (a 2025-11-25 push); the digest stays that of the question as declared. Any other
 * question is returned as is.
 */
export function identified(question: Question, seed: () => string): Question {
  const { ask, rendered } = question;
  if (askKind(ask) !== 'elicitUrl') return question;
  const urlAsk = ask as ElicitUrl;
  const { request } = rendered;
  if (urlAsk.elicitationId !== undefined || request.method !== 'elicitation/create') return question;
  const elicitationId = defaultElicitationId(seed(), question.key);
  return {
    ...question,
    ask: { ...urlAsk, elicitationId },
    rendered: {
      kind: rendered.kind,
      request: { ...request, params: { ...request.params, elicitationId } } as InputRequest,
      get digest() {
        return rendered.digest;
      },
    },
  };
}

/** Renders the marker a resolver (named `label` in messages) returned. */
export function renderQuestion(ask: Ask, label: string): RenderedQuestion {
  const kind = askKind(ask);
  let request: InputRequest;
  let canonical = (): string => canonicalize(request) ?? '';
  switch (kind) {
    case 'elicit': {
      const elicitAsk = ask as Extract<Ask, { schema: unknown }>;
      const requestedSchema = wireSchemaOf(elicitAsk.schema, label);
      request = { method: 'elicitation/create', params: { mode: 'form', message: elicitAsk.message, requestedSchema } };
      canonical = () => canonicalFormRequest(elicitAsk.message, requestedSchema);
      break;
    }
    case 'elicitUrl': {
      const { message, url, elicitationId } = ask as Extract<Ask, { url: string }>;
      // A default id is assigned per call by the strategy (see `identified`): '' until then, so the digest is stable.
      request = {
        method: 'elicitation/create',
        params: { mode: 'url', message, url, elicitationId: elicitationId ?? '' },
      };
      break;
    }
    case 'sample':
      request = inputRequired.createMessage((ask as Extract<Ask, { params: unknown }>).params);
      break;
    case 'roots':
      request = inputRequired.listRoots();
      break;
  }
  let digest: string | undefined;
  return {
    kind,
    request,
    // Only the modern era pins answers to digests; a legacy push never pays for the hash.
    get digest() {
      return (digest ??= digestOf(canonical()));
    },
  };
}
