//! Reading a [`Verdict`] back (a record file holds one per frame). Serde's derive reads an
//! internally tagged enum by first copying the whole object into a buffer of any value (and
//! an untagged [`RequestId`] once more), then reading the variant from that copy: for a
//! million frames that was a large part of reopening a recording. Here the object is read once
//! into its possible members, then checked against its `kind` as the derive would.

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};

use super::{RequestId, Verdict};

/// Every member any kind of verdict has; which ones must be there depends on `kind`.
#[derive(Deserialize)]
struct Members {
    kind: Kind,
    #[serde(default)]
    valid_up_to: Option<usize>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    id: Option<Id>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    is_error: Option<bool>,
    #[serde(default)]
    items: Option<Vec<Verdict>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    NotUtf8,
    NotJson,
    NotJsonRpc,
    Request,
    Notification,
    Response,
    Batch,
}

/// A request id as written: an integer or a string (`null` reads as no id).
struct Id(RequestId);

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        struct IdVisitor;
        impl Visitor<'_> for IdVisitor {
            type Value = Id;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an integer or a string")
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Id, E> {
                Ok(Id(RequestId::Number(n)))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Id, E> {
                i64::try_from(n)
                    .map(|n| Id(RequestId::Number(n)))
                    .map_err(|_| E::custom("request id out of range"))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Id, E> {
                Ok(Id(RequestId::String(s.to_string())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Id, E> {
                Ok(Id(RequestId::String(s)))
            }
        }
        d.deserialize_any(IdVisitor)
    }
}

impl<'de> Deserialize<'de> for Verdict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Verdict, D::Error> {
        let m = Members::deserialize(d)?;
        let missing = |field: &'static str| de::Error::missing_field(field);
        Ok(match m.kind {
            Kind::NotUtf8 => Verdict::NotUtf8 {
                valid_up_to: m.valid_up_to.ok_or_else(|| missing("valid_up_to"))?,
            },
            Kind::NotJson => Verdict::NotJson {
                error: m.error.ok_or_else(|| missing("error"))?,
            },
            Kind::NotJsonRpc => Verdict::NotJsonRpc {
                reason: m.reason.ok_or_else(|| missing("reason"))?,
            },
            Kind::Request => Verdict::Request {
                id: m.id.ok_or_else(|| missing("id"))?.0,
                method: m.method.ok_or_else(|| missing("method"))?,
            },
            Kind::Notification => Verdict::Notification {
                method: m.method.ok_or_else(|| missing("method"))?,
            },
            Kind::Response => Verdict::Response {
                id: m.id.map(|id| id.0),
                is_error: m.is_error.ok_or_else(|| missing("is_error"))?,
            },
            Kind::Batch => Verdict::Batch {
                items: m.items.ok_or_else(|| missing("items"))?,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::classify;

    #[test]
    fn every_kind_of_verdict_reads_back_as_it_was_written() {
        let frames: [&[u8]; 9] = [
            b"\xff",
            b"nope",
            br#"{"id":1}"#,
            br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#,
            br#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            br#"{"jsonrpc":"2.0","id":7,"result":{}}"#,
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#,
            br#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","method":"m"}]"#,
        ];
        for bytes in frames {
            let verdict = classify(bytes);
            let text = serde_json::to_string(&verdict).unwrap();
            let back: Verdict = serde_json::from_str(&text).unwrap();
            assert_eq!(back, verdict, "{text}");
        }
    }

    #[test]
    fn a_verdict_missing_what_its_kind_needs_is_refused() {
        for text in [
            r#"{"kind":"request","method":"ping"}"#,
            r#"{"kind":"request","id":null,"method":"ping"}"#,
            r#"{"kind":"response","id":1}"#,
            r#"{"kind":"request","id":1.5,"method":"ping"}"#,
            r#"{"kind":"what","method":"ping"}"#,
            r#"{"method":"ping"}"#,
        ] {
            assert!(serde_json::from_str::<Verdict>(text).is_err(), "{text}");
        }
    }
}
