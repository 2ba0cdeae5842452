/** A task or sub task status, coloured by the class of the same name (styles.css). */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge s-${status}`}>{status}</span>;
}
