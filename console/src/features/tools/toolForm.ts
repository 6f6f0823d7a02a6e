import { useMemo, useState, type FormEvent } from 'react';
import type { ZodType } from 'zod';
import { issuesByPath } from '../../components/form/useZodForm.ts';
import { fieldErrorsOf } from '../../data/client.ts';
import { useSelectedNode } from '../../shell/node-selection.ts';

/**
 * The form of a tool: values as the inputs hold them, checked with the API's own schema (a
 * field's message shows once it was left or a run was tried), and the run's request built from
 * them with the selected node (`?node=`) when there is one.
 */
export function useToolForm<V extends Record<string, unknown>>(schema: ZodType, initial: V, toPayload: (values: V) => Record<string, unknown>) {
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [tried, setTried] = useState(false);
  const [node] = useSelectedNode();
  const payload = useMemo(() => ({ ...toPayload(values), ...(node ? { node } : {}) }), [toPayload, values, node]);
  const errors = useMemo(() => issuesByPath(schema, payload), [schema, payload]);

  return {
    values,
    node,
    set: <K extends keyof V>(field: K, value: V[K]) => setValues((v) => ({ ...v, [field]: value })),
    touch: (field: string) => setTouched((t) => (t[field] ? t : { ...t, [field]: true })),
    errorOf: (field: string, requestError?: unknown) => fieldErrorsOf(requestError)[field] ?? (touched[field] || tried ? errors[field] : undefined),
    isValid: Object.keys(errors).length === 0,
    /** onSubmit of the form: runs `run` with the payload when the values are valid. */
    submit: (run: (payload: Record<string, unknown>) => void) => (event: FormEvent) => {
      event.preventDefault();
      setTried(true);
      if (Object.keys(errors).length === 0) run(payload);
    },
  };
}

/** A number input's text as the API wants it: a number, or the text itself so the schema names the problem. */
export function numberOrText(text: string): number | string | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : text;
}
