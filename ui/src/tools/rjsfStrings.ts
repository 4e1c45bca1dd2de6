// The generated form's own words (@rjsf/core's TranslatableString: "Add", "Move up", "Option 2",
// its error and empty-array messages…) in the UI's language, through the Form's translateString.
// English is RJSF's own text, with its %1, %2 parameters as {{p1}}, {{p2}}.
import { englishStringTranslator, TranslatableString } from "@rjsf/utils";
import i18n from "../i18n";
import type en from "../i18n/locales/en/tools.json";

type RjsfKey = keyof (typeof en)["rjsf"];

const KEYS: Partial<Record<TranslatableString, RjsfKey>> = {
  [TranslatableString.ArrayItemTitle]: "arrayItemTitle",
  [TranslatableString.MissingItems]: "missingItems",
  [TranslatableString.EmptyArray]: "emptyArray",
  [TranslatableString.YesLabel]: "yes",
  [TranslatableString.NoLabel]: "no",
  [TranslatableString.CloseLabel]: "close",
  [TranslatableString.ErrorsLabel]: "errors",
  // NewStringDefault ("New Value") is not here: it becomes the data of a new property.
  [TranslatableString.AddButton]: "add",
  [TranslatableString.AddItemButton]: "addItem",
  [TranslatableString.CopyButton]: "copy",
  [TranslatableString.ExpandButton]: "expand",
  [TranslatableString.MoveDownButton]: "moveDown",
  [TranslatableString.MoveUpButton]: "moveUp",
  [TranslatableString.RemoveButton]: "remove",
  [TranslatableString.NowLabel]: "now",
  [TranslatableString.ClearLabel]: "clear",
  [TranslatableString.AriaDateLabel]: "selectDate",
  [TranslatableString.PreviewLabel]: "preview",
  [TranslatableString.DecrementAriaLabel]: "decrement",
  [TranslatableString.IncrementAriaLabel]: "increment",
  [TranslatableString.OptionalObjectAdd]: "optionalAdd",
  [TranslatableString.OptionalObjectRemove]: "optionalRemove",
  [TranslatableString.OptionalObjectEmptyMsg]: "optionalEmpty",
  [TranslatableString.Type]: "type",
  [TranslatableString.Value]: "value",
  [TranslatableString.ClearButton]: "clearInput",
  [TranslatableString.UnknownFieldType]: "unknownFieldType",
  [TranslatableString.OptionPrefix]: "option",
  [TranslatableString.TitleOptionPrefix]: "titleOption",
  [TranslatableString.KeyLabel]: "keyLabel",
  [TranslatableString.DeprecatedLabel]: "deprecated",
  [TranslatableString.CycleDetected]: "cycleDetected",
  [TranslatableString.InvalidObjectField]: "invalidObjectField",
  [TranslatableString.UnsupportedField]: "unsupportedField",
  [TranslatableString.UnsupportedFieldWithId]: "unsupportedFieldWithId",
  [TranslatableString.UnsupportedFieldWithReason]: "unsupportedFieldWithReason",
  [TranslatableString.UnsupportedFieldWithIdAndReason]: "unsupportedFieldWithIdAndReason",
  [TranslatableString.FilesInfo]: "filesInfo",
};

/** RJSF's `translateString`: its strings in the UI's language now (English for any not mapped). */
export function translateRjsf(text: TranslatableString, params?: string[]): string {
  const key = KEYS[text];
  if (key === undefined) return englishStringTranslator(text, params);
  return i18n.t(`tools:rjsf.${key}`, { p1: params?.[0] ?? "", p2: params?.[1] ?? "", p3: params?.[2] ?? "" });
}
