import { useState, type ReactNode } from 'react';

const KEY = 'fray.console.folds';

/** The sections the GM opened or closed on this device (by id); nothing secret. */
function remembered(): Record<string, boolean> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).filter(([, o]) => typeof o === 'boolean')) : {};
  } catch {
    return {};
  }
}

function remember(id: string, open: boolean): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...remembered(), [id]: open }));
  } catch {
    // storage full or refused: the section still folds, it is just not remembered
  }
}

/** A wide screen (the console's two columns): every section starts open there. */
const wide = (): boolean => typeof window.matchMedia !== 'function' || window.matchMedia('(min-width: 1000px)').matches;

/**
 * A console section the GM folds away (`<details>`): open on a desktop, folded on a phone unless
 * `phoneOpen`; the GM's own choice is remembered on this device.
 */
export function Fold({ title, id, phoneOpen = false, children }: { title: string; id: string; phoneOpen?: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(() => remembered()[id] ?? (wide() || phoneOpen));
  const hid = `h-${id}`;
  return (
    <section className="panel fold" aria-labelledby={hid} id={id}>
      <details
        open={open}
        data-testid={`fold-${id}`}
        onToggle={(e) => {
          const now = e.currentTarget.open;
          if (now === open) return;
          setOpen(now);
          remember(id, now);
        }}
      >
        <summary className="panel-head">
          <h2 id={hid}>{title}</h2>
        </summary>
        {children}
      </details>
    </section>
  );
}
