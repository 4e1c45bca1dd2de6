//! Whether an environment variable or header looks like it holds a secret, so an import and the
//! app's server form (through the `secret_hints` command) offer to keep it in the secret store by
//! default. Decided here only. A guess, and only a default: the user's own choice always wins.

use std::sync::LazyLock;

use regex::Regex;

/// Names of keys, tokens and passwords: API_KEY, GITHUB_TOKEN, X-Api-Key, Authorization…
static SECRET_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)token|secret|passw(or)?d|pwd|auth|credential|cookie|private|key")
        .expect("valid pattern")
});

/// Well-known token shapes (OpenAI/Anthropic, GitHub, Slack, GitLab, AWS, Google, JWT…).
static TOKEN_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(bearer |basic |sk-|sk_live_|sk_test_|rk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|xox[abposr]-|glpat-|npm_|hf_|shpat_|whsec_|akia|asia|aiza|eyj)",
    )
    .expect("valid pattern")
});

/// Whether a name and value look like a secret (key, token, password).
pub fn looks_secret(name: &str, value: &str) -> bool {
    let value = value.trim();
    SECRET_NAME.is_match(name) || TOKEN_PREFIX.is_match(value) || looks_generated(value)
}

/// A long run of token characters with letters and digits mixed and little repetition: what
/// generated keys look like. Paths, URLs and sentences are not.
fn looks_generated(value: &str) -> bool {
    let token_char = |c: char| c.is_ascii_alphanumeric() || "_-+/=.~".contains(c);
    value.chars().count() >= 20
        && value.chars().all(token_char)
        && !value.starts_with(['/', '.', '~'])
        && !value.contains("//")
        && value.chars().any(|c| c.is_ascii_alphabetic())
        && value.chars().any(|c| c.is_ascii_digit())
        && entropy(value) >= 3.5
}

/// Bits per character of a string's characters (Shannon).
fn entropy(text: &str) -> f64 {
    let mut counts = std::collections::HashMap::<char, usize>::new();
    for c in text.chars() {
        *counts.entry(c).or_default() += 1;
    }
    let len = text.chars().count() as f64;
    counts
        .values()
        .map(|&n| {
            let p = n as f64 / len;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_keys_tokens_and_passwords_look_secret() {
        for name in [
            "API_KEY",
            "OPENAI_API_KEY",
            "GITHUB_TOKEN",
            "DB_PASSWORD",
            "CLIENT_SECRET",
            "Authorization",
            "Proxy-Authorization",
            "X-Api-Key",
            "x-auth-token",
            "Cookie",
        ] {
            assert!(looks_secret(name, "x"), "{name}");
        }
    }

    #[test]
    fn values_shaped_like_tokens_look_secret_whatever_their_name() {
        for value in [
            "sk-proj-abc123",
            "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
            "github_pat_11ABC",
            "xoxb-123-456",
            "Bearer abc",
            "AKIAIOSFODNN7EXAMPLE",
            "AIzaSyA-1234",
            "eyJhbGciOiJIUzI1NiJ9.e30.sig",
            "q8Zr3LwV9pX2mK7tB4nY6cJ1hF5dG0sA",
        ] {
            assert!(looks_secret("SETTING", value), "{value}");
        }
    }

    #[test]
    fn ordinary_settings_do_not_look_secret() {
        for (name, value) in [
            ("LOG_LEVEL", "debug"),
            ("NODE_ENV", "production"),
            ("HOME", "/home/ada/projects/some-long-folder-name-2024"),
            ("SERVER_URL", "https://example.com/api/v1/endpoint?x=1"),
            ("Accept-Language", "en-GB,en;q=0.9"),
            ("PORT", "8080"),
            ("GREETING", "hello world, how are you today"),
            ("MODE", "aaaaaaaaaaaaaaaaaaaaaaaa1111"),
        ] {
            assert!(!looks_secret(name, value), "{name}={value}");
        }
    }
}
