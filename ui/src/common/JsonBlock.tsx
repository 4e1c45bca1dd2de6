import { pretty } from "../json";

/** Indented JSON in the monospace font. */
export function JsonBlock({ value, testId }: { value: unknown; testId?: string }) {
  return (
    <pre className="code-block" data-testid={testId}>
      {pretty(value)}
    </pre>
  );
}
