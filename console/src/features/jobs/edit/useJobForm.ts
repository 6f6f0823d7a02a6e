import { useCallback, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ZodType } from 'zod';
import { issuesByPath, type FieldErrors } from '../../../components/form/useZodForm.ts';

/** A path into the values, dotted: "input.uri", "outputs.0.uri". */
export type Path = string;

function segments(path: Path): string[] {
  return path.split('.');
}

export function getAt(source: unknown, path: Path): unknown {
  let current = source as Record<string, unknown> | undefined;
  for (const key of segments(path)) {
    if (current === null || current === undefined) return undefined;
    current = current[key] as Record<string, unknown> | undefined;
  }
  return current;
}

/** A copy of `source` with `value` at `path` (copies only along the path). */
export function setAt<T>(source: T, path: Path, value: unknown): T {
  const [head, ...rest] = segments(path);
  const container = (source ?? {}) as Record<string, unknown> | unknown[];
  const copy = (Array.isArray(container) ? [...container] : { ...container }) as Record<string, unknown>;
  copy[head] = rest.length === 0 ? value : setAt(copy[head], rest.join('.'), value);
  return copy as T;
}

const isEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export interface JobFormOptions<V> {
  initial: V;
  schema: ZodType;
  toPayload: (values: V) => unknown;
  /** An existing item: Update stays disabled until something changes. */
  saved: boolean;
}

/**
 * The console's form conventions (see components/form/useZodForm.ts) for a nested form: values
 * are set by path, checked with the API's own schema, a message shows under a field once it was
 * left or a submit was tried, a server's field error stays until that field (or one inside it)
 * changes, and Create/Update is disabled while saving, while invalid and after saving until changed.
 */
export function useJobForm<V>({ initial, schema, toPayload, saved: startsSaved }: JobFormOptions<V>) {
  const [values, setValues] = useState<V>(initial);
  const [savedValues, setSavedValues] = useState<V | null>(startsSaved ? initial : null);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const submitting = useRef(false);

  const errors = useMemo(() => issuesByPath(schema, toPayload(values)), [schema, toPayload, values]);
  const isValid = Object.keys(errors).length === 0;
  const isDirty = savedValues === null || !isEqual(values, savedValues);

  const clearServerErrors = useCallback((path: Path) => {
    setServerErrors((current) => {
      const stale = Object.keys(current).filter((key) => key === path || key.startsWith(`${path}.`) || path.startsWith(`${key}.`));
      if (stale.length === 0) return current;
      const next = { ...current };
      for (const key of stale) delete next[key];
      return next;
    });
  }, []);

  const set = useCallback(
    (path: Path, value: unknown) => {
      setValues((current) => setAt(current, path, value));
      clearServerErrors(path);
    },
    [clearServerErrors],
  );

  /** Change what is at `path` from its current value (lists: add, remove, resize). */
  const update = useCallback(
    <T>(path: Path, change: (current: T) => T) => {
      setValues((current) => setAt(current, path, change(getAt(current, path) as T)));
      clearServerErrors(path);
    },
    [clearServerErrors],
  );

  const replace = useCallback((next: V) => setValues(next), []);
  /** The stored item changed outside the form (e.g. unlocked): start from it, saved. */
  const reset = useCallback((next: V) => {
    setValues(next);
    setSavedValues(next);
    setServerErrors({});
    setSubmitted(false);
    setTouched({});
  }, []);
  const touch = useCallback((path: Path) => setTouched((t) => (t[path] ? t : { ...t, [path]: true })), []);

  const shown = useCallback((path: Path) => path in serverErrors || ((touched[path] || submitted) && path in errors), [serverErrors, touched, submitted, errors]);

  /** The message under a field, if any. */
  const errorOf = (path: Path): string | undefined => serverErrors[path] ?? (touched[path] || submitted ? errors[path] : undefined);

  /** Messages shown under `prefix` (for the marks on the sub-tabs). */
  const shownErrorsUnder = (prefixes: readonly string[]): number => {
    const keys = new Set([...Object.keys(errors), ...Object.keys(serverErrors)]);
    return [...keys].filter((key) => shown(key) && prefixes.some((p) => key === p || key.startsWith(`${p}.`))).length;
  };

  function submitWith(save: (payload: unknown) => Promise<V | void>) {
    const run = async () => {
      setSubmitted(true);
      if (!isValid || !isDirty || submitting.current) return;
      submitting.current = true;
      setSaving(true);
      try {
        const next = await save(toPayload(values));
        const after = next ?? values;
        setValues(after);
        setSavedValues(after);
        setServerErrors({});
        setSubmitted(false);
        setTouched({});
      } catch (error) {
        const fields = (error as { fieldErrors?: FieldErrors }).fieldErrors;
        if (fields) setServerErrors(fields);
      } finally {
        submitting.current = false;
        setSaving(false);
      }
    };
    return {
      run,
      formProps: {
        onSubmit: (event: FormEvent) => {
          event.preventDefault();
          void run();
        },
        onKeyDown: (event: KeyboardEvent<HTMLFormElement>) => {
          const target = event.target as HTMLElement;
          if (event.key !== 'Enter' || target.tagName !== 'INPUT') return;
          const type = (target as HTMLInputElement).type;
          if (type === 'checkbox' || type === 'radio' || type === 'button' || type === 'submit' || type === 'file') return;
          event.preventDefault();
          void run();
        },
        noValidate: true,
      },
    };
  }

  return {
    values,
    set,
    update,
    replace,
    reset,
    touch,
    errorOf,
    errors,
    shownErrorsUnder,
    isValid,
    isDirty,
    saving,
    submitted,
    canSubmit: isValid && isDirty && !saving,
    submitWith,
  };
}

export type JobForm<V> = ReturnType<typeof useJobForm<V>>;
