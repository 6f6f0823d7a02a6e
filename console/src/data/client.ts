/**
 * The one API client of the console. Requests go to the same origin (the API serves the console).
 * - The API cannot be reached (network failure, or a 502/503/504 from a proxy): the 502 page.
 * - 401 on any call but the session probe and the sign-in calls: the session is gone, so to /login
 *   and back to the current page after signing in again.
 */
import { ApiError, createApiClient, unwrap, type Schemas } from '../../../openapi/client/index.ts';

export { ApiError, unwrap };
export type { Schemas };

export const UNAVAILABLE_PATH = '/502';

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);
let onSignedOut: () => void = () => {};

/** The shell installs the router's navigate and a hook that forgets the cached session. */
export function connectClient(options: { navigate: Navigate; onSignedOut: () => void }): void {
  navigate = options.navigate;
  onSignedOut = options.onSignedOut;
}

/** Calls whose 401 is an answer, not a lost session: the probe and the sign-in forms. */
const AUTH_CALLS = /^\/api\/auth\//;

export function loginPathFor(location: { pathname: string; search: string; hash?: string }): string {
  const wanted = `${location.pathname}${location.search}${location.hash ?? ''}`;
  return wanted.startsWith('/my') && wanted !== '/my' ? `/login?next=${encodeURIComponent(wanted)}` : '/login';
}

export function showUnavailable(): void {
  if (window.location.pathname !== UNAVAILABLE_PATH) navigate(UNAVAILABLE_PATH);
}

export const api = createApiClient({ baseUrl: '', credentials: 'same-origin' });

api.use({
  onResponse({ request, response }) {
    if (response.status === 502 || response.status === 503 || response.status === 504) {
      showUnavailable();
      return;
    }
    if (response.status === 401 && !AUTH_CALLS.test(new URL(request.url).pathname)) {
      onSignedOut();
      if (window.location.pathname !== '/login') navigate(loginPathFor(window.location));
    }
  },
  onError({ error }) {
    // fetch itself failed: the API is down or unreachable.
    if (!(error instanceof DOMException && error.name === 'AbortError')) showUnavailable();
  },
});

/** The message to show for any failure, from the server's `{ code, message }` where there is one. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}

/** Field errors of a 400/409 answer, keyed by the form's field path (`body.username` -> `username`). */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiError) || !error.details) return out;
  for (const detail of error.details) {
    const path = detail.path.replace(/^body\.?/, '');
    if (path && !(path in out)) out[path] = detail.message;
  }
  return out;
}
