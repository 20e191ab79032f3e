/** The outline of a thumb (after Tabler Icons' `thumb-up`, MIT), pointing up, or down when `down`. */
const THUMB =
  'M7 11v8a1 1 0 0 1 -1 1h-2a1 1 0 0 1 -1 -1v-7a1 1 0 0 1 1 -1h3a4 4 0 0 0 4 -4v-1a2 2 0 0 1 4 0v5h3a2 2 0 0 1 2 2l-1 5a2 3 0 0 1 -2 2h-7a3 3 0 0 1 -3 -3';

/** A thumb drawn in the text colour: no icon font needed (a browser without emoji fonts shows it too). */
export function ThumbIcon({ down = false, size = 18 }: { down?: boolean; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={THUMB} transform={down ? 'matrix(1 0 0 -1 0 24)' : undefined} />
    </svg>
  );
}
