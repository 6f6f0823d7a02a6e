import { createElement, type ReactElement } from 'react';
import { ApiError } from '../openapi/client/index.ts';
import type * as views from './ui/views.tsx';
import type { Column } from './ui/table.tsx';

/** Where output goes; tests pass their own. */
export interface Streams {
  out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  err: NodeJS.WritableStream;
}

const defaultStreams: Streams = { out: process.stdout, err: process.stderr };

/** The API's JSON, as it answered it (indented for reading; the same value when parsed). */
export function printJson(data: unknown, streams: Streams = defaultStreams): void {
  streams.out.write(`${JSON.stringify(data, null, 2)}\n`);
}

/** A short human line for the result of a write ("User 12 disabled."). */
export function printLine(line: string, streams: Streams = defaultStreams): void {
  streams.out.write(`${line}\n`);
}

/** The width a table may take: the terminal's, or unbounded when the output goes to a file or a pipe. */
export function terminalWidth(streams: Streams = defaultStreams): number | undefined {
  return streams.out.isTTY && streams.out.columns ? streams.out.columns : undefined;
}

/** Render an Ink element once as text (no live terminal session) at `columns`, lines trimmed. */
async function writeRendered(element: ReactElement, columns: number | undefined, streams: Streams): Promise<void> {
  const { renderToString } = await import('ink');
  const text = renderToString(element, { columns: columns ?? 1000 });
  streams.out.write(`${text.split('\n').map((line) => line.trimEnd()).join('\n')}\n`);
}

/** An Ink element, rendered once as text at the terminal's width. */
export function printElement(element: ReactElement, streams: Streams = defaultStreams): Promise<void> {
  return writeRendered(element, terminalWidth(streams), streams);
}

/** Rows as an Ink table (cli/ui/table.tsx), rendered once as text at the terminal's width. */
export async function printTable<Row>(columns: Column<Row>[], rows: Row[], empty: string, footer?: string, streams: Streams = defaultStreams): Promise<void> {
  const { Table } = await import('./ui/table.tsx');
  const width = terminalWidth(streams);
  await writeRendered(createElement(Table<Row>, { columns, rows, empty, footer, maxWidth: width }), width, streams);
}

type Views = typeof views;

/**
 * Render one of the views of cli/ui with Ink, once, as text (no live terminal session), at the
 * terminal's width. Ink and the views load only here: `--json` and the writes start without them.
 */
export async function printView<K extends keyof Views>(name: K, props: Parameters<Views[K]>[0], streams: Streams = defaultStreams): Promise<void> {
  const loaded = await import('./ui/views.tsx');
  const view = loaded[name] as (p: typeof props) => ReturnType<Views[K]>;
  await printElement(createElement(view, props), streams);
}

/** An error that the CLI reports as `code: message`, like the API's. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Array<{ path: string; message: string }>,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The lines an error is reported with on stderr: `code: message`, then one line per field issue. */
export function errorLines(error: unknown): string[] {
  if (error instanceof ApiError || error instanceof CliError) {
    const details = error.details ?? [];
    const issueLines = details.map((issue) => `${issue.path}: ${issue.message}`);
    // The API's message is its issues joined by "; ": one issue is said once, several one a line.
    if (details.length === 1 && error.message === issueLines[0]) return [`${error.code}: ${error.message}`];
    const joined = details.length > 1 && error.message === issueLines.join('; ');
    const lines = [joined ? `${error.code}: ${details.length} fields break a rule:` : `${error.code}: ${error.message}`];
    for (const line of issueLines) lines.push(`  ${line}`);
    if (error instanceof ApiError && error.status >= 500 && error.requestId) lines.push(`  request id: ${error.requestId}`);
    if (error instanceof ApiError && error.code === 'UNAUTHORIZED') lines.push('  Sign in with `mediaplane login`, or give a token with --token or MEDIAPLANE_TOKEN.');
    return lines;
  }
  const err = error as { code?: unknown; message?: string; name?: string } | undefined;
  if (err?.name === 'SyntaxError') return [`BAD_RESPONSE: the server did not answer with JSON (${err.message}); is --url the address of a Mediaplane API?`];
  if (typeof err?.code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(err.code)) return [`${err.code}: ${err.message}`];
  return [`error: ${err?.message ?? String(error)}`];
}

export function printError(error: unknown, streams: Streams = defaultStreams): void {
  for (const line of errorLines(error)) streams.err.write(`${line}\n`);
}

/** Dates as the operator reads them: `2026-05-04 13:07:55` in local time. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
