/**
 * The one typed client of the API, used by the console and the CLI alike. Its types are generated
 * from openapi.json by openapi/build.ts (openapi-typescript); requests go through openapi-fetch.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

export type { components, paths };
export type Schemas = components['schemas'];
export type ApiClient = Client<paths>;

/** The body of every error response. */
export type ApiErrorBody = Schemas['Error'];

/** An error response turned into an exception: `code: message`, with the HTTP status and field issues. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ApiErrorBody['details'],
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static from(status: number, body: unknown, requestId?: string | null): ApiError {
    const b = (body ?? {}) as Partial<ApiErrorBody>;
    return new ApiError(status, b.code ?? `HTTP_${status}`, b.message ?? `The server answered ${status}.`, b.details, b.requestId ?? requestId ?? undefined);
  }
}

export interface ApiClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  baseUrl?: string;
  /** A personal API token, sent as `Authorization: Bearer`. */
  token?: string;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const { token, baseUrl = '', headers, ...rest } = options;
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(headers as Record<string, string> | undefined) },
    ...rest,
  });
}

/**
 * Unwrap an openapi-fetch result: the data, or an ApiError. Usage:
 * `const users = await unwrap(client.GET('/api/users', { params: { query: { search } } }));`
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || error !== undefined) throw ApiError.from(response.status, error, response.headers.get('x-request-id'));
  return data as T;
}
