import { useId } from 'react';

export function Logo({ size = 28 }: { size?: number }) {
  const gradient = `gaia-logo-${useId().replace(/:/g, '')}`;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#34d399" />
          <stop offset="1" stopColor="#0e7490" />
        </linearGradient>
      </defs>
      <circle cx="16" cy="16" r="15" fill={`url(#${gradient})`} />
      <path d="M4 16h24M16 2c4 4 6 9 6 14s-2 10-6 14M16 2c-4 4-6 9-6 14s2 10 6 14" stroke="#ecfeff" strokeWidth="1.6" fill="none" />
    </svg>
  );
}
