//! The one meaning of a text query, for the store's page scan and for memory alike: the query
//! split on whitespace into terms (a `"quoted phrase"` is one term, a trailing `*` ignored), a
//! body matching when it contains every term as a substring, ASCII case-insensitively
//! (other bytes compared exactly). Bytes, not text: a body that is not UTF-8 is searched as it
//! was recorded.

use memchr::memmem::Finder;

use super::pages::{U32s, body_range_in};

/// Characters a snippet shows on each side of the hit.
const SNIPPET_SIDE: usize = 30;

/// A parsed query: its terms, ASCII-lowercased, each with its substring finder.
pub(crate) struct TextQuery {
    finders: Vec<Finder<'static>>,
}

impl TextQuery {
    /// `None` when the query holds no term (empty, blanks, a lone `*` or `""`): it narrows
    /// nothing.
    pub(crate) fn parse(query: &str) -> Option<TextQuery> {
        let finders: Vec<Finder<'static>> = terms(query)
            .into_iter()
            .map(|t| Finder::new(&t.into_bytes()).into_owned())
            .collect();
        (!finders.is_empty()).then_some(TextQuery { finders })
    }

    /// Whether `body` contains every term (the memory path, one body at a time).
    pub(crate) fn matches(&self, body: &[u8]) -> bool {
        let lower = body.to_ascii_lowercase();
        self.finders.iter().all(|f| f.find(&lower).is_some())
    }

    /// The bodies of a page that match: `lower` is the page's data ASCII-lowercased, `ends` the
    /// end offset of each body in it (body i is `ends[i-1]..ends[i]`), read only where a hit
    /// falls. Calls `hit` with the index of each matching body, in order.
    ///
    /// The terms take turns (leapfrog): each moves the candidate to the first body, at or after
    /// it, that holds the term; when every term in a row finds the same body, it matches. A
    /// search for a rare term beside a common one ("message 500017") so costs a few scans of
    /// the page, not a look into every body the common term is in.
    pub(crate) fn matching_bodies(&self, lower: &[u8], ends: U32s<'_>, mut hit: impl FnMut(usize)) {
        let n = ends.len();
        let terms = self.finders.len();
        let mut body = 0usize;
        // Terms in a row that found `body`; the next term to search.
        let (mut agreed, mut turn) = (0usize, 0usize);
        while body < n {
            let Some(found) = self.next_body_with(turn, lower, ends, body) else {
                return;
            };
            if found == body {
                agreed += 1;
            } else {
                body = found;
                agreed = 1;
            }
            if agreed == terms {
                hit(body);
                body += 1;
                agreed = 0;
            }
            turn = (turn + 1) % terms;
        }
    }

    /// The first body at or after `from` that holds term `term` whole (a hit running over a
    /// body's end belongs to neither body), or `None`.
    fn next_body_with(
        &self,
        term: usize,
        lower: &[u8],
        ends: U32s<'_>,
        from: usize,
    ) -> Option<usize> {
        let finder = &self.finders[term];
        let needle = finder.needle().len();
        let mut pos = body_range_in(ends, from).start;
        while pos < lower.len() {
            let at = pos + finder.find(&lower[pos..])?;
            // The body the hit starts in: the first whose end lies past it.
            let body = ends.first_past(at as u32);
            if body >= ends.len() {
                return None;
            }
            let end = body_range_in(ends, body).end;
            if at + needle <= end {
                return Some(body);
            }
            pos = end.max(at + 1);
        }
        None
    }

    /// The words around the first term's first hit in `body`, the hit between `«` and `»`, `…`
    /// where the body goes on. `None` when the first term is not in it.
    pub(crate) fn snippet(&self, body: &[u8]) -> Option<String> {
        let lower = body.to_ascii_lowercase();
        let first = &self.finders[0];
        let at = first.find(&lower)?;
        let end = at + first.needle().len();
        let from = char_start(body, back_chars(body, at, SNIPPET_SIDE));
        let to = char_start(body, forward_chars(body, end, SNIPPET_SIDE));
        let end = char_start(body, end).max(at);
        let text = |range: std::ops::Range<usize>| {
            String::from_utf8_lossy(&body[range])
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect::<String>()
        };
        let mut out = String::new();
        if from > 0 {
            out.push('…');
        }
        out.push_str(&text(from..at));
        out.push('«');
        out.push_str(&text(at..end));
        out.push('»');
        out.push_str(&text(end..to));
        if to < body.len() {
            out.push('…');
        }
        Some(out)
    }
}

/// The query's terms, ASCII-lowercased: whitespace-separated words, a `"quoted phrase"` as one
/// term (an unclosed quote runs to the end), a trailing `*` dropped.
pub(crate) fn terms(query: &str) -> Vec<String> {
    let mut terms = Vec::new();
    let mut chars = query.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let Some(&c) = chars.peek() else { break };
        let mut term = String::new();
        if c == '"' {
            chars.next();
            for c in chars.by_ref() {
                if c == '"' {
                    break;
                }
                term.push(c);
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                term.push(c);
            }
        }
        let term = term.strip_suffix('*').unwrap_or(&term).to_ascii_lowercase();
        if !term.is_empty() {
            terms.push(term);
        }
    }
    terms
}

/// The offset `n` characters (roughly: UTF-8 lead bytes) before `at`.
fn back_chars(body: &[u8], at: usize, n: usize) -> usize {
    let mut pos = at;
    let mut seen = 0;
    while pos > 0 && seen < n {
        pos -= 1;
        if !is_continuation(body[pos]) {
            seen += 1;
        }
    }
    pos
}

/// The offset `n` characters after `at`.
fn forward_chars(body: &[u8], at: usize, n: usize) -> usize {
    let mut pos = at;
    let mut seen = 0;
    while pos < body.len() && seen < n {
        pos += 1;
        if pos < body.len() && !is_continuation(body[pos]) {
            seen += 1;
        }
    }
    pos
}

/// `at` moved back to the start of the character it falls in, so a cut splits no character.
fn char_start(body: &[u8], at: usize) -> usize {
    let mut pos = at.min(body.len());
    while pos > 0 && pos < body.len() && is_continuation(body[pos]) {
        pos -= 1;
    }
    pos
}

fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(query: &str, body: &[u8]) -> bool {
        TextQuery::parse(query).unwrap().matches(body)
    }

    /// Bodies of a page, and the indexes of those the query keeps.
    fn page_hits(query: &str, bodies: &[&[u8]]) -> Vec<usize> {
        let mut data = Vec::new();
        let mut ends = Vec::new();
        for b in bodies {
            data.extend_from_slice(b);
            ends.extend_from_slice(&(data.len() as u32).to_le_bytes());
        }
        let lower = data.to_ascii_lowercase();
        let mut hits = Vec::new();
        TextQuery::parse(query)
            .unwrap()
            .matching_bodies(&lower, U32s(&ends), |i| hits.push(i));
        hits
    }

    #[test]
    fn terms_split_on_whitespace_with_quoted_phrases_and_a_trailing_star_dropped() {
        assert_eq!(
            terms(r#"  Tools/Call "found 42"  prog* "unclosed phrase"#),
            ["tools/call", "found 42", "prog", "unclosed phrase"]
        );
        assert!(terms("  *  \"\" ").is_empty());
        assert!(TextQuery::parse("   ").is_none());
    }

    #[test]
    fn every_term_must_appear_in_any_ascii_case_as_a_substring() {
        let body = br#"{"method":"tools/call","params":{"data":"Message 42"}}"#;
        assert!(matches("tools/call", body));
        assert!(matches("MESSAGE 42", body), "each word a term");
        assert!(matches("\"message 42\"", body), "a phrase");
        assert!(matches("mess*", body), "a prefix is a substring");
        assert!(matches("ool", body), "a substring inside a word");
        assert!(!matches("\"42 message\"", body));
        assert!(!matches("message 43", body), "every term, not any");
        assert!(!matches("messages", body));
    }

    #[test]
    fn non_ascii_is_compared_exactly_and_bytes_need_not_be_utf8() {
        let body = "Grüße aus Zürich 东京".as_bytes();
        assert!(matches("grüße", body));
        assert!(!matches("GRÜSSE", body));
        assert!(matches("东京", body));
        assert!(!matches("grÜße", body), "Ü is not ASCII: exact");
        let raw = b"\xff\xfeOOPS not json\x00";
        assert!(matches("oops", raw));
        assert!(matches("\"not json\"", raw));
    }

    #[test]
    fn a_page_maps_hits_to_its_bodies_and_a_hit_over_a_body_edge_is_none() {
        let bodies: [&[u8]; 5] = [b"alpha be", b"ta gamma", b"", b"beta", b"xbetax BETA"];
        // "beta" spans bodies 0 and 1: neither contains it.
        assert_eq!(page_hits("beta", &bodies), [3, 4]);
        assert_eq!(page_hits("gamma", &bodies), [1]);
        assert_eq!(page_hits("alpha gamma", &bodies), Vec::<usize>::new());
        assert_eq!(page_hits("a", &bodies), [0, 1, 3, 4]);
        // A hit spanning the edge does not hide one right after it in the next body.
        let edge: [&[u8]; 2] = [b"xa", b"aa"];
        assert_eq!(page_hits("aa", &edge), [1]);
    }

    #[test]
    fn terms_meet_in_the_same_body_whichever_is_rare_and_in_any_order() {
        let bodies: Vec<Vec<u8>> = (0..1000)
            .map(|i| format!(r#"{{"data":"message {i}"}}"#).into_bytes())
            .collect();
        let refs: Vec<&[u8]> = bodies.iter().map(Vec::as_slice).collect();
        assert_eq!(page_hits("message 517", &refs), [517]);
        assert_eq!(page_hits("517 message", &refs), [517]);
        let with_99: Vec<usize> = (0..1000).filter(|i| i.to_string().contains("99")).collect();
        assert_eq!(page_hits("message 99", &refs), with_99);
        assert_eq!(page_hits("51 message 17", &refs), [517]);
        assert_eq!(page_hits("message 5000", &refs), Vec::<usize>::new());
        assert_eq!(page_hits("data message", &refs).len(), 1000);
        // One term twice, and a term that ends where the next body starts.
        let bodies: [&[u8]; 4] = [b"ab", b"c", b"", b"abc ab"];
        assert_eq!(page_hits("ab ab", &bodies), [0, 3]);
        assert_eq!(page_hits("abc c", &bodies), [3]);
    }

    #[test]
    fn a_snippet_marks_the_first_hit_with_words_around_it() {
        let q = TextQuery::parse("zanzibar").unwrap();
        assert_eq!(
            q.snippet(b"server warming up: Zanzibar cache").unwrap(),
            "server warming up: «Zanzibar» cache"
        );
        let long = format!("{}needle{}", "a".repeat(100), "b".repeat(100));
        let s = TextQuery::parse("needle")
            .unwrap()
            .snippet(long.as_bytes())
            .unwrap();
        assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
        assert!(s.contains("«needle»"));
        assert!(s.chars().count() < 80, "{s}");
        let utf = "ééééééééééééééééééééééééééééééééééééééé x ééééééééééééééééééééééééééééééééé";
        let s = TextQuery::parse("x")
            .unwrap()
            .snippet(utf.as_bytes())
            .unwrap();
        assert!(!s.contains('\u{FFFD}'), "no character cut in half: {s}");
        assert!(q.snippet(b"nothing here").is_none());
    }
}
