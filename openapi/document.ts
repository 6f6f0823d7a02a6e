import { z } from 'zod';
import { OpenApiBuilder, type OpenAPIObject, type OperationObject, type ParameterObject, type SchemaObject } from 'openapi3-ts/oas31';
import { describePermission, type OperationDef } from './operation.ts';
import { operations } from './paths/index.ts';
import { PRODUCT_VERSION } from './version.ts';

const COMPONENT_REF = '#/components/schemas/';

type Json = Record<string, unknown>;

/** zod -> JSON Schema 2020-12 (what OpenAPI 3.1 speaks), named schemas as component references. */
function toSchema(schema: z.ZodType, io: 'input' | 'output'): SchemaObject {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    io,
    metadata: z.globalRegistry,
    uri: (id: string) => `${COMPONENT_REF}${id}`,
  } as Parameters<typeof z.toJSONSchema>[1]) as Json;
  return normalise(json) as SchemaObject;
}

/** Drop $schema/$id/$defs and point local definitions at the components. */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value as Json)) {
    if (key === '$schema' || key === '$id' || key === '$defs') continue;
    if (key === '$ref' && typeof child === 'string') {
      out.$ref = child.replace(/^#\/\$defs\//, COMPONENT_REF);
      continue;
    }
    out[key] = normalise(child);
  }
  return out;
}

function parametersOf(op: OperationDef): ParameterObject[] {
  const parameters: ParameterObject[] = [];
  for (const [where, schema] of [['path', op.params], ['query', op.query]] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input') as Json & { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property;
      parameters.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest as SchemaObject,
      });
    }
  }
  return parameters;
}

function operationObject(op: OperationDef): OperationObject {
  const responses: Record<string, Json> = {};
  const object: OperationObject & Json = {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: [op.description, `**Permission:** ${describePermission(op.permission)}`].filter(Boolean).join('\n\n'),
    'x-permission': op.permission,
    parameters: parametersOf(op),
    responses,
  };
  if (op.body) {
    object.requestBody = {
      required: true,
      content: { [op.bodyContentType ?? 'application/json']: { schema: toSchema(op.body, 'input') } },
    };
  }
  for (const [status, response] of Object.entries(op.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.schema ? { content: { [response.contentType ?? 'application/json']: { schema: toSchema(response.schema, 'output') } } } : {}),
    };
  }
  const errors: Record<string, string> = { 400: 'The request breaks a rule; `details` names each field.', 500: 'Unexpected server error; the detail is in the server log under the request id.' };
  if (op.permission !== 'public') {
    errors[401] = 'No valid session or token.';
    if (op.permission !== 'authenticated') errors[403] = 'The user lacks the permission this operation needs.';
  }
  for (const [status, description] of Object.entries(errors)) {
    responses[status] ??= { description, content: { 'application/json': { schema: { $ref: `${COMPONENT_REF}Error` } } } };
  }
  return object;
}

/** The component ids that `roots` reference, directly or through other components. */
function referencedIds(roots: unknown[], components: Record<string, Json>): Set<string> {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value as Json)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(COMPONENT_REF)) {
        const id = child.slice(COMPONENT_REF.length);
        if (!found.has(id)) {
          found.add(id);
          visit(components[id]);
        }
      } else visit(child);
    }
  };
  roots.forEach(visit);
  return found;
}

/** The whole document, generated from the operation registry and the zod schemas. */
export function buildOpenApiDocument(ops: readonly OperationDef[] = operations): OpenAPIObject {
  const builder = OpenApiBuilder.create({
    openapi: '3.1.0',
    info: {
      title: 'Mediaplane API',
      version: PRODUCT_VERSION,
      description:
        'The control plane of a media streaming and transcoding platform. Sign in with a session cookie (console) or send a personal API token as `Authorization: Bearer <token>` (CLI, automation). Every error has the body `{ code, message, details? }` and an `X-Request-Id` header.',
    },
    paths: {},
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'mp_session' },
        token: { type: 'http', scheme: 'bearer', description: 'A personal API token.' },
      },
    },
    security: [{ session: [] }, { token: [] }],
  });
  for (const op of ops) {
    const objects = operationObject(op);
    if (op.permission === 'public') objects.security = [];
    const current = builder.rootDoc.paths?.[op.path] ?? {};
    builder.addPath(op.path, { ...current, [op.method]: objects });
  }
  // Every named schema (`.meta({ id })`) becomes a component. Those reached from a request take
  // their input form (defaults make fields optional), the rest their output form.
  const components = (io: 'input' | 'output') =>
    (z.toJSONSchema(z.globalRegistry, { target: 'draft-2020-12', unrepresentable: 'any', io, uri: (id: string) => `${COMPONENT_REF}${id}` }) as { schemas: Record<string, Json> })
      .schemas;
  const inputs = components('input');
  const outputs = components('output');
  const inputIds = referencedIds(
    Object.values(builder.rootDoc.paths ?? {}).flatMap((item) => Object.values(item as Json).map((op) => (op as Json).requestBody ?? (op as Json).parameters)),
    inputs,
  );
  // Only what the operations reach: a schema module imported elsewhere in the process adds nothing.
  const reached = referencedIds(Object.values(builder.rootDoc.paths ?? {}), outputs);
  for (const id of inputIds) reached.add(id);
  reached.add('Error');
  for (const id of [...reached].sort()) builder.addSchema(id, normalise((inputIds.has(id) ? inputs : outputs)[id]) as SchemaObject);
  return builder.getSpec();
}
