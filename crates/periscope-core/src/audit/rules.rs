//! The audit's rules: one place for each rule's id, weight, and words (why it matters, what to
//! do). docs/audit.md lists them with the write-ups they come from.

use serde::{Deserialize, Serialize};

/// How much a finding matters, lowest first (`--fail-on` compares them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum FindingSeverity {
    /// A property worth knowing (a free-form `command` input), not a fault.
    Info,
    Warning,
    Error,
}

impl FindingSeverity {
    pub fn id(self) -> &'static str {
        match self {
            FindingSeverity::Info => "info",
            FindingSeverity::Warning => "warning",
            FindingSeverity::Error => "error",
        }
    }

    pub fn parse(id: &str) -> Option<FindingSeverity> {
        [
            FindingSeverity::Info,
            FindingSeverity::Warning,
            FindingSeverity::Error,
        ]
        .into_iter()
        .find(|s| s.id() == id)
    }
}

/// One audit rule. Serialised as its id (`hidden-tag-characters`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "kebab-case")]
pub enum AuditRule {
    HiddenTagCharacters,
    HiddenBidiControl,
    HiddenInName,
    HiddenVariationSelectors,
    HiddenZeroWidth,
    HiddenControl,
    HiddenFormat,
    MixedScriptName,
    ConfusableName,
    ShadowedName,
    ModelTag,
    OverrideInstructions,
    ConcealFromUser,
    SecretFile,
    ModelDirective,
    OtherServerTool,
    SendToAddress,
    AddressInText,
    SideChannelParameter,
    OpenInput,
}

/// A rule's weight and words.
pub struct RuleText {
    pub severity: FindingSeverity,
    /// What the rule looks for, in a line.
    pub title: &'static str,
    /// Why it matters to a model, a host or a user.
    pub why: &'static str,
    /// What the server's author should do.
    pub fix: &'static str,
}

impl AuditRule {
    pub const ALL: [AuditRule; 20] = [
        AuditRule::HiddenTagCharacters,
        AuditRule::HiddenBidiControl,
        AuditRule::HiddenInName,
        AuditRule::HiddenVariationSelectors,
        AuditRule::HiddenZeroWidth,
        AuditRule::HiddenControl,
        AuditRule::HiddenFormat,
        AuditRule::MixedScriptName,
        AuditRule::ConfusableName,
        AuditRule::ShadowedName,
        AuditRule::ModelTag,
        AuditRule::OverrideInstructions,
        AuditRule::ConcealFromUser,
        AuditRule::SecretFile,
        AuditRule::ModelDirective,
        AuditRule::OtherServerTool,
        AuditRule::SendToAddress,
        AuditRule::AddressInText,
        AuditRule::SideChannelParameter,
        AuditRule::OpenInput,
    ];

    pub fn id(self) -> &'static str {
        match self {
            AuditRule::HiddenTagCharacters => "hidden-tag-characters",
            AuditRule::HiddenBidiControl => "hidden-bidi-control",
            AuditRule::HiddenInName => "hidden-in-name",
            AuditRule::HiddenVariationSelectors => "hidden-variation-selectors",
            AuditRule::HiddenZeroWidth => "hidden-zero-width",
            AuditRule::HiddenControl => "hidden-control",
            AuditRule::HiddenFormat => "hidden-format",
            AuditRule::MixedScriptName => "mixed-script-name",
            AuditRule::ConfusableName => "confusable-name",
            AuditRule::ShadowedName => "shadowed-name",
            AuditRule::ModelTag => "model-tag",
            AuditRule::OverrideInstructions => "override-instructions",
            AuditRule::ConcealFromUser => "conceal-from-user",
            AuditRule::SecretFile => "secret-file",
            AuditRule::ModelDirective => "model-directive",
            AuditRule::OtherServerTool => "other-server-tool",
            AuditRule::SendToAddress => "send-to-address",
            AuditRule::AddressInText => "address-in-text",
            AuditRule::SideChannelParameter => "side-channel-parameter",
            AuditRule::OpenInput => "open-input",
        }
    }

    pub fn text(self) -> RuleText {
        use FindingSeverity::{Error, Info, Warning};
        let (severity, title, why, fix) = match self {
            AuditRule::HiddenTagCharacters => (
                Error,
                "Invisible Unicode tag characters",
                "Tag characters (U+E0000–U+E007F) are invisible on screen, but a model reads them as the ASCII letters they mirror: a whole instruction can hide in text that looks harmless.",
                "Remove them. No tool, prompt or resource text needs tag characters.",
            ),
            AuditRule::HiddenBidiControl => (
                Error,
                "Bidirectional control characters",
                "Bidi overrides and isolates change the order text is shown in, so what a person reads differs from what the model reads (\"Trojan Source\").",
                "Remove them; write right-to-left text without explicit controls.",
            ),
            AuditRule::HiddenInName => (
                Error,
                "An invisible character in a name",
                "A name with a hidden character looks like another name and is a different string: the user approves one tool and the model calls another.",
                "Use plain names: letters, digits, `_` and `-`.",
            ),
            AuditRule::HiddenVariationSelectors => (
                Error,
                "A run of variation selectors",
                "Variation selectors are invisible; a run of them can encode arbitrary bytes that a model or a decoder recovers (\"emoji smuggling\").",
                "Remove them; a single selector after an emoji is all text ever needs.",
            ),
            AuditRule::HiddenZeroWidth => (
                Warning,
                "Zero-width characters",
                "Zero-width spaces and joiners are invisible and split or join words the model reads, which hides words from filters and from the user.",
                "Remove them.",
            ),
            AuditRule::HiddenControl => (
                Warning,
                "Control characters",
                "Control characters (other than newline and tab) are not shown, and a terminal may act on them.",
                "Remove them.",
            ),
            AuditRule::HiddenFormat => (
                Warning,
                "Invisible format characters or blank letters",
                "Format characters and letters drawn as blank space are invisible to the user and still read by the model.",
                "Remove them.",
            ),
            AuditRule::MixedScriptName => (
                Error,
                "A name mixing scripts",
                "A Latin name with a Cyrillic or Greek letter in it (`sеnd_email`) looks like the plain name and is not: a user cannot tell which tool the model calls.",
                "Write each name in one script.",
            ),
            AuditRule::ConfusableName => (
                Error,
                "A name that looks like another",
                "Two names that Unicode's confusable table (TR39) maps to the same skeleton look the same to a person; one may imitate the other to catch the model's calls.",
                "Rename one of them so that the two look different.",
            ),
            AuditRule::ShadowedName => (
                Warning,
                "The same tool name on two servers",
                "A host that loads both servers has two tools of one name; which one the model calls depends on the host, and one server can shadow the other's tool.",
                "Give the tool a name of its own (hosts that prefix names with the server's still show the clash to users).",
            ),
            AuditRule::ModelTag => (
                Error,
                "Markup that speaks to the model with authority",
                "Tags such as <IMPORTANT> or <system> in a description are read by models as instructions of weight; tool-poisoning write-ups use them to smuggle orders.",
                "Describe what the tool does in plain words; leave orders to the host and the user.",
            ),
            AuditRule::OverrideInstructions => (
                Error,
                "Text that tells the model to drop its instructions",
                "\"Ignore previous instructions\" and its kin are prompt injection: they aim to replace what the host and the user told the model.",
                "Remove it.",
            ),
            AuditRule::ConcealFromUser => (
                Error,
                "Text that tells the model to keep something from the user",
                "A description that asks the model not to tell the user is the signature of a hidden action.",
                "Remove it; anything a tool does should be shown to the user.",
            ),
            AuditRule::SecretFile => (
                Warning,
                "A mention of secret files or keys",
                "Text that names SSH keys, `.env` files or credential stores invites the model to read them; poisoned tools ask for exactly these.",
                "Do not point the model at secrets; take what the tool needs as an explicit, described input.",
            ),
            AuditRule::ModelDirective => (
                Warning,
                "An order to the model",
                "Text aimed at the model (\"before using this tool, …\", \"the assistant must …\") steers it past the user's request.",
                "Say what the tool does and what it needs; let the model decide when to call it.",
            ),
            AuditRule::OtherServerTool => (
                Warning,
                "A mention of another server's tool",
                "A description that names another server's tool can change how the model uses that tool (cross-server shadowing).",
                "Describe only this server's tools.",
            ),
            AuditRule::SendToAddress => (
                Warning,
                "Text asking to send something to an address",
                "An instruction to send, post or forward data to a URL or an e-mail address is the shape of exfiltration.",
                "Remove it; a tool that sends data should say so in its name and take the destination as an input the user sees.",
            ),
            AuditRule::AddressInText => (
                Info,
                "A URL or e-mail address in the text",
                "Addresses in what the model reads are where data could be sent; most are documentation links.",
                "Nothing, if it is a link to documentation.",
            ),
            AuditRule::SideChannelParameter => (
                Warning,
                "An unexplained parameter that could carry the conversation",
                "A parameter such as `sidenote`, `context` or `feedback` that nothing describes lets a poisoned description have the model pass the conversation or secrets out.",
                "Describe the parameter, or remove it.",
            ),
            AuditRule::OpenInput => (
                Info,
                "A free-form input for a command, query, path or URL",
                "A string input with no pattern, enum, format or length limit accepts anything the model writes; the server must check it.",
                "Constrain it in the schema where you can (enum, pattern, format), and check it in the server.",
            ),
        };
        RuleText {
            severity,
            title,
            why,
            fix,
        }
    }

    pub fn parse(id: &str) -> Option<AuditRule> {
        AuditRule::ALL.into_iter().find(|r| r.id() == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_serde_writes_them() {
        let mut ids: Vec<&str> = AuditRule::ALL.iter().map(|r| r.id()).collect();
        for rule in AuditRule::ALL {
            assert_eq!(
                serde_json::to_value(rule).unwrap(),
                serde_json::json!(rule.id())
            );
            assert_eq!(AuditRule::parse(rule.id()), Some(rule));
        }
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), AuditRule::ALL.len());
    }
}
