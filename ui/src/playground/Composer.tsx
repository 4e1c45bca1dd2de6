// The playground's message box. Prompts are the user's to choose (as the spec intends): typing
// "/" offers the server's prompts, and a chosen one shows its arguments form; its messages
// start the turn. Resources are attached from a picker: their contents join the message. So are
// skills (SEP-2640): loaded when the message is sent, verified, their origin stated to the model.
import { followOffers } from "./offers";
import { Paperclip, Send, Square, X } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ensureList } from "../actions/lists";
import type { Attachment } from "../bindings/Attachment";
import { promptInfo, type PromptInfo } from "../prompts/prompts";
import { useServerLists } from "../state/lists";
import { allSkills, useServerSkills } from "../state/skills";
import { ensureSkills } from "../skills/actions";

/** The prompts whose names start with what follows the "/" (the whole text is "/…"). */
export function matchingPrompts(text: string, prompts: PromptInfo[]): PromptInfo[] {
  if (!text.startsWith("/") || /\s/.test(text)) return [];
  const typed = text.slice(1).toLowerCase();
  return prompts.filter((p) => p.name.toLowerCase().startsWith(typed));
}

export function Composer({
  serverId,
  busy,
  onSend,
  onStop,
}: {
  serverId: string;
  busy: boolean;
  onSend: (text: string, attachments: Attachment[]) => void;
  onStop: () => void;
}) {
  const { t } = useTranslation(["playground", "skills"]);
  const ids = useId();
  const lists = useServerLists(serverId);
  const [text, setText] = useState("");
  const [prompt, setPrompt] = useState<PromptInfo | null>(null);
  const [args, setArgs] = useState<Record<string, string>>({});
  const [resources, setResources] = useState<string[]>([]);
  const [picked, setPicked] = useState("");
  const [skillUris, setSkillUris] = useState<string[]>([]);
  const [pickedSkill, setPickedSkill] = useState("");
  const skillState = useServerSkills(serverId);
  const skills = allSkills(skillState);
  // An app's message the user accepted lands here, to be read, edited and sent by the user.
  useEffect(() => followOffers(serverId, setText), [serverId]);
  useEffect(() => {
    ensureList(serverId, "prompts");
    ensureList(serverId, "resources");
    ensureSkills(serverId);
  }, [serverId]);
  const prompts = lists.prompts.items.map(promptInfo).filter((p): p is PromptInfo => p !== null);
  const uris = lists.resources.items.flatMap((r) => (r.uri === null ? [] : [r.uri]));
  const offered = matchingPrompts(text, prompts);
  const missing = prompt?.arguments.some((a) => a.required && (args[a.name] ?? "").trim() === "") ?? false;
  const canSend = !busy && !missing && (text.trim() !== "" || prompt !== null || resources.length > 0 || skillUris.length > 0);
  const submit = () => {
    if (!canSend) return;
    const attachments: Attachment[] = [
      ...(prompt ? [{ kind: "prompt" as const, server_id: serverId, name: prompt.name, arguments: args }] : []),
      ...resources.map((uri) => ({ kind: "resource" as const, server_id: serverId, uri })),
      ...skillUris.map((uri) => ({ kind: "skill" as const, server_id: serverId, uri })),
    ];
    onSend(text.trim(), attachments);
    setText("");
    setPrompt(null);
    setArgs({});
    setResources([]);
    setSkillUris([]);
  };
  const choose = (p: PromptInfo) => {
    setPrompt(p);
    setArgs({});
    setText("");
  };
  return (
    <form
      className="playground-composer-box"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {(prompt || resources.length > 0 || skillUris.length > 0) && (
        <div className="playground-bar" data-testid="chat-attachments">
          {prompt && (
            <span className="badge" data-testid="chat-prompt-chip">
              /{prompt.name}
              <button type="button" className="icon-button" aria-label={t("attach.removePrompt")} onClick={() => setPrompt(null)}>
                <X size={12} aria-hidden />
              </button>
            </span>
          )}
          {resources.map((uri) => (
            <span key={uri} className="badge mono" data-testid="chat-resource-chip">
              {uri}
              <button
                type="button"
                className="icon-button"
                aria-label={t("attach.removeResource", { uri })}
                onClick={() => setResources(resources.filter((r) => r !== uri))}
              >
                <X size={12} aria-hidden />
              </button>
            </span>
          ))}
          {skillUris.map((uri) => {
            const name = skills.find((s) => s.uri === uri)?.name ?? uri;
            return (
              <span key={uri} className="badge mono" data-testid="chat-skill-chip" title={uri}>
                {name}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t("skills:attach.remove", { name })}
                  onClick={() => setSkillUris(skillUris.filter((s) => s !== uri))}
                >
                  <X size={12} aria-hidden />
                </button>
              </span>
            );
          })}
        </div>
      )}
      {prompt && prompt.arguments.length > 0 && (
        <div className="playground-bar" data-testid="chat-prompt-args">
          {prompt.arguments.map((a) => (
            <label key={a.name} className="field" title={a.description ?? undefined}>
              <span className="field-label">
                {a.name}
                {a.required ? " *" : ""}
              </span>
              <input
                data-testid={`chat-prompt-arg-${a.name}`}
                value={args[a.name] ?? ""}
                onChange={(e) => setArgs({ ...args, [a.name]: e.target.value })}
              />
            </label>
          ))}
        </div>
      )}
      {offered.length > 0 && (
        <ul className="playground-prompt-list" role="listbox" aria-label={t("attach.prompts")}>
          {offered.map((p) => (
            <li key={p.name}>
              <button type="button" className="button" data-testid="chat-prompt-option" onClick={() => choose(p)}>
                /{p.name}
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="playground-composer">
        <textarea
          aria-label={t("message")}
          placeholder={t("message")}
          data-testid="chat-input"
          rows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
        />
        {uris.length > 0 && (
          <span className="playground-bar">
            <select
              id={`${ids}-resource`}
              aria-label={t("attach.resource")}
              data-testid="chat-resource-picker"
              value={picked}
              onChange={(e) => setPicked(e.target.value)}
            >
              <option value="">{t("attach.resource")}</option>
              {uris.map((uri) => (
                <option key={uri} value={uri}>
                  {uri}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button"
              data-testid="chat-attach"
              disabled={picked === "" || resources.includes(picked)}
              onClick={() => {
                setResources([...resources, picked]);
                setPicked("");
              }}
            >
              <Paperclip size={14} aria-hidden /> {t("attach.button")}
            </button>
          </span>
        )}
        {skills.length > 0 && (
          <span className="playground-bar">
            <select
              aria-label={t("skills:attach.skill")}
              data-testid="chat-skill-picker"
              value={pickedSkill}
              onChange={(e) => setPickedSkill(e.target.value)}
            >
              <option value="">{t("skills:attach.skill")}</option>
              {skills.map((s) => (
                <option key={s.uri} value={s.uri}>
                  {s.name}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button"
              data-testid="chat-attach-skill"
              disabled={pickedSkill === "" || skillUris.includes(pickedSkill)}
              onClick={() => {
                setSkillUris([...skillUris, pickedSkill]);
                setPickedSkill("");
              }}
            >
              <Paperclip size={14} aria-hidden /> {t("skills:attach.button")}
            </button>
          </span>
        )}
        {busy ? (
          <button type="button" className="button" data-testid="chat-stop" onClick={onStop}>
            <Square size={14} aria-hidden /> {t("stop")}
          </button>
        ) : (
          <button type="submit" className="button button-primary" data-testid="chat-send" disabled={!canSend}>
            <Send size={14} aria-hidden /> {t("send")}
          </button>
        )}
      </div>
    </form>
  );
}
