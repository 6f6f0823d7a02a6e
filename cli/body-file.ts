import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { CliError, terminalWidth } from './output.ts';
import type * as presetViews from './ui/preset-views.tsx';

type Body = Record<string, unknown>;

/**
 * One object from `--file`: JSON or YAML (YAML reads JSON too; `.json` files go through JSON.parse
 * for its sharper messages); `-` reads stdin. `what` names the object in the error message.
 */
export async function readObjectFile(file: string, what: string, readStdin: () => string = () => readFileSync(0, 'utf8')): Promise<Body> {
  let text: string;
  try {
    text = file === '-' ? readStdin() : readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError('FILE_UNREADABLE', `cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = file.toLowerCase().endsWith('.json') ? JSON.parse(text) : (await import('yaml')).parse(text);
  } catch (error) {
    throw new CliError('FILE_INVALID', `${file} is neither valid JSON nor YAML: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new CliError('FILE_INVALID', `${file} must hold one ${what} object, with the API's field names`);
  return parsed as Body;
}

/** Only the given (not undefined) entries. */
export function defined(fields: Body): Body {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

type Views = typeof presetViews;

/** Render a view of cli/ui/preset-views.tsx once, as text, at the terminal's width (Ink loads only here). */
export async function printPresetView<K extends keyof Views>(name: K, props: Parameters<Views[K]>[0]): Promise<void> {
  const [{ renderToString }, loaded] = await Promise.all([import('ink'), import('./ui/preset-views.tsx')]);
  const view = loaded[name] as (p: typeof props) => ReturnType<Views[K]>;
  const text = renderToString(createElement(view, props), { columns: terminalWidth() ?? 1000 });
  process.stdout.write(`${text.split('\n').map((line) => line.trimEnd()).join('\n')}\n`);
}
