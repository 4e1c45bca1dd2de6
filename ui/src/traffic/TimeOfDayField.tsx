// One end of the Traffic list's time range: a time of day typed as text. Not `<input
// type="time">`: WebKitGTK draws an empty one as a time ("12:30:00"), which reads as a filter
// that is on. Empty here is empty (a placeholder says "any time"); what is typed applies once
// it is a time, and a half-typed or wrong value is marked, not applied.
import { useState } from "react";
import { useTranslation } from "react-i18next";

/** "H:MM" or "HH:MM:SS" today (local time) as µs since the epoch; null when not a time. */
export function timeOfDayUs(value: string, today: Date = new Date()): number | null {
  const match = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const at = new Date(today);
  at.setHours(hours, minutes, seconds, 0);
  return at.getTime() * 1000;
}

/** µs since the epoch as "HH:MM:SS" local time; "" for none. */
export function usToTimeOfDay(us: number | null): string {
  if (us === null) return "";
  const at = new Date(us / 1000);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
}

interface Props {
  /** The range's end in µs (for the end of a range: the start of its last second), or null for open. */
  value: number | null;
  onChange: (us: number | null) => void;
  label: string;
  testId: string;
}

export function TimeOfDayField({ value, onChange, label, testId }: Props) {
  const { t } = useTranslation("traffic");
  const [text, setText] = useState(() => usToTimeOfDay(value));
  // The value changed from elsewhere (the range cleared, the filter reset): show it.
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    if (timeOfDayUs(text) !== value) setText(usToTimeOfDay(value));
  }
  const invalid = text.trim() !== "" && timeOfDayUs(text) === null;
  return (
    <input
      type="text"
      inputMode="numeric"
      className={`time-field${invalid ? " invalid" : ""}`}
      data-testid={testId}
      aria-label={label}
      aria-invalid={invalid || undefined}
      placeholder={t("filter.anyTime")}
      title={invalid ? t("filter.timeInvalid") : undefined}
      value={text}
      spellCheck={false}
      onChange={(e) => {
        const typed = e.target.value;
        setText(typed);
        const us = typed.trim() === "" ? null : timeOfDayUs(typed);
        if (typed.trim() === "" || us !== null) {
          setShown(us);
          onChange(us);
        }
      }}
    />
  );
}
