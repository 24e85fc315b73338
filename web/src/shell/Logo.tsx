/** Curio's mark: a museum pediment inside a rounded square. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg className="curio-logo" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="curio-logo-g" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="var(--curio-brand-from, #6d4aff)" />
          <stop offset="1" stopColor="var(--curio-brand-to, #e0457b)" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#curio-logo-g)" />
      <path d="M16 6.5 25 11v1.6H7V11z" fill="#fff" />
      <path d="M9.5 14.5h2.2v7H9.5zm5.4 0h2.2v7h-2.2zm5.4 0h2.2v7h-2.2z" fill="#fff" opacity=".92" />
      <rect x="7" y="22.6" width="18" height="2.4" rx="1" fill="#fff" />
    </svg>
  );
}
