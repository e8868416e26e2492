import type { ReactNode } from 'react';

/**
 * The parts every translator shares (public models page, public agent page, owner test translator):
 * the language direction bar with its swap button, and the translate button with its busy state.
 */
export function DirectionBar({ source, target, onSwap, swapLabel }: { source: string; target: string; onSwap: () => void; swapLabel: string }) {
  return (
    <div className="direction-bar">
      <span className="lang-pill" data-testid="source-language">
        {source}
      </span>
      <button type="button" className="btn btn--icon" onClick={onSwap} aria-label={swapLabel} title={swapLabel}>
        ⇄
      </button>
      <span className="lang-pill" data-testid="target-language">
        {target}
      </span>
    </div>
  );
}

/** `children`: further actions shown beside the button (e.g. the models page's 'See Agent Details'). */
export function TranslateButton({
  busy,
  disabled,
  onClick,
  label,
  busyLabel,
  children,
}: {
  busy: boolean;
  disabled: boolean;
  onClick: () => void;
  label: string;
  busyLabel: string;
  children?: ReactNode;
}) {
  return (
    <div className="translator-actions">
      <button type="button" className="btn btn--primary" onClick={onClick} disabled={disabled}>
        {busy && <span className="spinner spinner--light" aria-hidden="true" />}
        {busy ? busyLabel : label}
      </button>
      {children}
    </div>
  );
}
