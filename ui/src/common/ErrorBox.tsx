import { AlertCircle } from "lucide-react";
import type { ReactNode } from "react";

interface Props {
  title?: string;
  message: string;
  testId?: string;
  children?: ReactNode;
}

/** An error, in words, where it happened. */
export function ErrorBox({ title, message, testId, children }: Props) {
  return (
    <div className="error-box" role="alert" data-testid={testId}>
      <AlertCircle className="error-box-icon" size={16} aria-hidden />
      <div className="error-box-body">
        {title && <div className="error-box-title">{title}</div>}
        <div className="error-box-message">{message}</div>
        {children}
      </div>
    </div>
  );
}
