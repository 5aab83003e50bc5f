// A text field of a GET filter form, checked on the server: the form carries noValidate and the
// field no browser constraint, so a message is always the server's own Croatian sentence, right
// below the field, linked with aria-describedby and marked aria-invalid. `day` makes it a day typed
// the way the portal prints dates, "20. 11. 2026." (lib/days.ts).
import { DAY_PLACEHOLDER } from "~/lib/days";
import css from "./usage.module.css";

interface Props {
  id: string;
  name: string;
  label: string;
  value: string;
  error?: string | undefined;
  autoFocus?: boolean;
  day?: boolean;
  maxLength?: number;
  inputMode?: "numeric";
}

export function FilterField({ id, name, label, value, error, autoFocus, day, maxLength, inputMode }: Props) {
  const errorId = `${id}-error`;
  return (
    <div className={css.filterField}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        name={name}
        defaultValue={value}
        placeholder={day ? DAY_PLACEHOLDER : undefined}
        size={day ? 13 : undefined}
        maxLength={maxLength}
        inputMode={inputMode}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        autoFocus={autoFocus}
        data-testid={id}
      />
      {error ? (
        <span id={errorId} className="field-error" data-testid={errorId}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** The submit button of a filter form. */
export function FilterSubmit({ label = "Prikaži", testId }: { label?: string; testId?: string }) {
  return (
    <div className={css.filterActions}>
      <button type="submit" className="btn small" data-testid={testId}>
        {label}
      </button>
    </div>
  );
}
