// A data table with its header row: columns by name (numeric ones right-aligned, an actions column
// named for screen readers only), the rows as children. Below 640 px a `.stack` table shows each
// row as a card with every cell labelled by its column (the cells' data-label).
import type { CSSProperties, ReactNode } from "react";

type Column = string | { label: string; num?: boolean; srOnly?: boolean };

/** The last column of rows with buttons: named, but only for screen readers. */
export const ACTIONS_COLUMN: Column = { label: "Radnje", srOnly: true };

interface Props {
  columns: Column[];
  children: ReactNode;
  testId?: string;
  className?: string;
  style?: CSSProperties;
  /** The element around the table: `.table-wrap` (scrolls sideways on its own) by default, or none. */
  wrap?: { className?: string; style?: CSSProperties } | null;
}

export function DataTable({ columns, children, testId, className = "data stack", style, wrap = { className: "table-wrap" } }: Props) {
  const table = (
    <table className={className} data-testid={testId} style={style}>
      <thead>
        <tr>
          {columns.map((c) => {
            const col = typeof c === "string" ? { label: c } : c;
            return (
              <th key={col.label} className={col.num ? "num" : undefined}>
                {col.srOnly ? <span className="sr-only">{col.label}</span> : col.label}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
  return wrap ? (
    <div className={wrap.className} style={wrap.style}>
      {table}
    </div>
  ) : (
    table
  );
}
