import { useId, useState, type FormEvent } from 'react';
import type { ApprovalView } from '../../../common/contract';
import { startEdit, submitArgs, switchMode } from './edit-state';
import { revealPlain } from './reveal';
import { Revealed } from './Revealed';
import type { Field, FieldValue } from './schema-form';

interface Props {
  approval: ApprovalView;
  busy: boolean;
  /** The server's refusal (e.g. a schema violation), shown as is. */
  serverError: string | null;
  /**
   * Why the core would refuse an edited allow now (ApprovalView.refused: the tool changed while
   * the form was open): said in the form, and its submit is off; Cancel and Deny stay.
   */
  refused?: string | undefined;
  onSubmit: (args: Record<string, unknown>) => void;
  onCancel: () => void;
}

/** "Edit & allow": a form from the tool's input schema, with a raw-JSON fallback (edit-state.ts). */
export function EditForm({ approval, busy, serverError, refused, onSubmit, onCancel }: Props) {
  const [state, setState] = useState(() => startEdit(approval.inputSchema, approval.arguments));
  const { raw, fields, values, rawText } = state;
  const [localError, setLocalError] = useState<string | null>(null);
  const id = useId();

  const toggle = () => {
    const next = switchMode(state, approval.inputSchema);
    if ('error' in next) return setLocalError(next.error);
    setLocalError(null);
    setState(next);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (refused) return;
    const built = submitArgs(state);
    if (!built.ok) return setLocalError(built.error);
    setLocalError(null);
    onSubmit(built.args);
  };

  const setRawText = (text: string) => setState((old) => ({ ...old, rawText: text }));
  const error = localError ?? serverError;
  const set = (name: string, v: FieldValue) =>
    setState((old) => ({ ...old, values: { ...old.values, [name]: v } }));

  return (
    <form
      className="edit-form"
      onSubmit={submit}
      aria-label={`Edit the arguments of ${approval.tool}`}
      data-testid="edit-form"
      noValidate
    >
      {raw || !fields ? (
        <div className="field">
          <label htmlFor={`${id}-raw`}>Arguments (JSON)</label>
          <textarea
            id={`${id}-raw`}
            data-testid="edit-raw"
            className="mono"
            rows={Math.min(16, rawText.split('\n').length + 1)}
            value={rawText}
            spellCheck={false}
            onChange={(e) => setRawText(e.target.value)}
            autoFocus
          />
        </div>
      ) : (
        fields.map((f, i) => (
          <FieldInput
            key={f.name}
            field={f}
            id={`${id}-${i}`}
            value={values[f.name] ?? ''}
            onChange={(v) => set(f.name, v)}
            autoFocus={i === 0}
          />
        ))
      )}
      {error && (
        <p className="error" role="alert" data-testid="edit-error">
          {error}
        </p>
      )}
      {refused && (
        <p className="error" role="status" id={`${id}-refused`} data-testid="edit-refused">
          {refused}
        </p>
      )}
      <div className="actions">
        <button
          type="submit"
          className="primary"
          disabled={busy || !!refused}
          aria-describedby={refused ? `${id}-refused` : undefined}
          data-testid="edit-submit"
        >
          Allow with these arguments
        </button>
        {fields && (
          <button type="button" onClick={toggle} disabled={busy} data-testid="edit-toggle-raw">
            {raw ? 'Edit as form' : 'Edit as JSON'}
          </button>
        )}
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function FieldInput({
  field,
  id,
  value,
  onChange,
  autoFocus,
}: {
  field: Field;
  id: string;
  value: FieldValue;
  onChange: (v: FieldValue) => void;
  autoFocus: boolean;
}) {
  const describedBy = field.description ? `${id}-desc` : undefined;
  const label = (
    <label htmlFor={id}>
      {/* A name the schema does not give is the agent's words, and a schema's title and
          description its server's: named as on the card (red-team finding R5). A title is shown
          with the argument it fills, so "Subject" cannot stand for `bcc`. */}
      <Revealed text={field.label} />
      {field.label !== field.name && (
        <span className="hint">
          {' '}
          (
          <code>
            <Revealed text={field.name} />
          </code>
          )
        </span>
      )}
      {field.required && <span aria-hidden="true"> *</span>}
      {field.kind === 'json' && <span className="hint"> (JSON)</span>}
      {field.extra && (
        <span className="hint"> — not in the tool's schema; clear it to leave it out</span>
      )}
    </label>
  );
  const desc = field.description && (
    <span id={describedBy} className="hint">
      <Revealed text={field.description} />
    </span>
  );
  const common = {
    id,
    name: field.name,
    'aria-describedby': describedBy,
    'aria-required': field.required,
    'data-testid': `edit-field-${field.name}`,
    autoFocus,
  };
  if (field.kind === 'boolean') {
    return (
      <div className="field checkbox">
        <input
          type="checkbox"
          {...common}
          checked={value === true}
          onChange={(e) => onChange(e.target.checked)}
        />
        {label}
        {desc}
      </div>
    );
  }
  const text = typeof value === 'string' ? value : '';
  let input;
  if (field.kind === 'enum') {
    input = (
      <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
        {!field.required && <option value="">(not set)</option>}
        {field.required && text === '' && <option value="">Choose…</option>}
        {field.options?.map((o, i) => (
          <option key={i} value={String(i)}>
            {/* The schema's words in plain text: hidden characters written out (red-team R5). */}
            {revealPlain(typeof o === 'string' ? o : JSON.stringify(o))}
          </option>
        ))}
      </select>
    );
  } else if (field.multiline) {
    input = (
      <textarea
        {...common}
        className={field.kind === 'json' ? 'mono' : undefined}
        rows={Math.min(10, Math.max(3, text.split('\n').length + 1))}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else {
    const numeric = field.kind === 'number' || field.kind === 'integer';
    input = (
      <input
        type="text"
        inputMode={numeric ? (field.kind === 'integer' ? 'numeric' : 'decimal') : undefined}
        {...common}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <div className="field">
      {label}
      {desc}
      {input}
    </div>
  );
}
