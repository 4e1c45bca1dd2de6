// Whether an environment variable or header looks like it holds a secret, so the server form
// (and the engine's import: crates/periscope-core/src/secret_hint.rs, which checks the same cases)
// offers to keep it in the OS keychain by default. A guess, and only a default: the user's own
// choice always wins.

/** Names of keys, tokens and passwords: API_KEY, GITHUB_TOKEN, X-Api-Key, Authorization… */
const SECRET_NAME = /token|secret|passw(or)?d|pwd|auth|credential|cookie|private|key/i;

/** Well-known token shapes (OpenAI/Anthropic, GitHub, Slack, GitLab, AWS, Google, JWT…). */
const TOKEN_PREFIX =
  /^(bearer |basic |sk-|sk_live_|sk_test_|rk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|xox[abposr]-|glpat-|npm_|hf_|shpat_|whsec_|akia|asia|aiza|eyj)/i;

/** Bits per character of a string's characters (Shannon). */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const c of text) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * A long run of token characters with letters and digits mixed and little repetition: what
 * generated keys look like. Paths, URLs and sentences are not.
 */
function looksGenerated(value: string): boolean {
  if (value.length < 20) return false;
  if (!/^[A-Za-z0-9_\-+/=.~]+$/.test(value)) return false;
  if (/^[/.~]/.test(value) || value.includes("//")) return false;
  if (!/[A-Za-z]/.test(value) || !/[0-9]/.test(value)) return false;
  return entropy(value) >= 3.5;
}

/** Whether a name and value look like a secret (key, token, password). */
export function looksSecret(name: string, value: string): boolean {
  const trimmed = value.trim();
  return SECRET_NAME.test(name) || TOKEN_PREFIX.test(trimmed) || looksGenerated(trimmed);
}
