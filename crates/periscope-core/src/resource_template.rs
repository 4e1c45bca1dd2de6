//! Resource templates (RFC 6570 URI templates, levels 1 to 4): which variables a template has,
//! and the URI it expands to with a form's values. Parsing and expansion are iri-string's; this
//! file decides only what a form needs: an empty field counts as undefined (so `{?q,page}` with
//! only `q` filled gives `?q=…`), and a variable is required when leaving it out leaves a hole in
//! the URI (a simple or reserved expansion such as a path segment), not when it only drops an
//! optional part (`{?q}`, `{#frag}`, `{/dir}`).

use std::collections::BTreeMap;

use iri_string::spec::UriSpec;
use iri_string::template::UriTemplateStr;
use iri_string::template::simple_context::SimpleContext;
use serde::{Deserialize, Serialize};

/// One variable of a template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TemplateVariable {
    pub name: String,
    /// Decided by the first expression that names it: a simple (`{id}`) or reserved (`{+path}`)
    /// expansion needs a value; any other operator makes its part optional.
    pub required: bool,
}

/// A template filled in with a form's values: what the Resources view shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TemplateExpansion {
    /// Each variable once, in order of first appearance; none when the template is invalid.
    pub variables: Vec<TemplateVariable>,
    /// The URI the values make; empty when the template is invalid.
    pub uri: String,
    /// The required variables that have no value yet.
    pub missing: Vec<String>,
    /// Why the template cannot be filled in (iri-string's words, with the byte where it saw it).
    pub error: Option<String>,
}

/// A template that is not RFC 6570.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// RFC 6570 templates are ASCII outside percent-escapes. Checked before iri-string reads
    /// the text: its validator (0.7.14) panics on some non-ASCII input (the fuzz target
    /// `uri_template` found one), and a server's template must never crash the host.
    #[error("a URI template holds ASCII characters only; byte {0} is not one")]
    NotAscii(usize),
    #[error(transparent)]
    Invalid(#[from] iri_string::template::Error),
    /// iri-string 0.7.14's expansion panicked (a prefix modifier on some values overflows a
    /// subtraction: the fuzz target found it); caught, as schema_check.rs catches its
    /// validator's, so a server's template cannot take the host down.
    #[error("this template cannot be expanded with these values (the URI template library failed)")]
    ExpansionFailed,
}

/// The template, checked as RFC 6570 (ASCII first, see [`TemplateError::NotAscii`]).
fn parse(template: &str) -> Result<&UriTemplateStr, TemplateError> {
    if let Some(at) = template.bytes().position(|b| !b.is_ascii()) {
        return Err(TemplateError::NotAscii(at));
    }
    Ok(UriTemplateStr::new(template)?)
}

/// The template's variables, each once, in order of first appearance.
pub fn variables(template: &str) -> Result<Vec<TemplateVariable>, TemplateError> {
    let template = parse(template)?;
    let mut seen: Vec<TemplateVariable> = Vec::new();
    for (operator, list) in expressions(template) {
        // Simple string expansion has no operator; `+` is reserved expansion.
        let required = matches!(operator, None | Some('+'));
        for spec in list.split(',') {
            let name = spec.trim_end_matches('*');
            let name = name.split_once(':').map_or(name, |(name, _prefix)| name);
            if !seen.iter().any(|v| v.name == name) {
                seen.push(TemplateVariable {
                    name: name.to_string(),
                    required,
                });
            }
        }
    }
    Ok(seen)
}

/// The URI a template expands to with string values (as URI characters: what a URI may not hold
/// is percent-encoded as UTF-8). Empty and missing values are left out.
pub fn expand(template: &str, values: &BTreeMap<String, String>) -> Result<String, TemplateError> {
    let mut context = SimpleContext::new();
    for (name, value) in values.iter().filter(|(_, value)| !value.is_empty()) {
        context.insert(name.as_str(), value.as_str());
    }
    expand_in(template, &context)
}

/// Variables, URI and what is missing in one answer; an invalid template is said, not thrown.
pub fn fill(template: &str, values: &BTreeMap<String, String>) -> TemplateExpansion {
    match variables(template).and_then(|variables| Ok((variables, expand(template, values)?))) {
        Ok((variables, uri)) => {
            let missing = variables
                .iter()
                .filter(|v| v.required && values.get(&v.name).is_none_or(String::is_empty))
                .map(|v| v.name.clone())
                .collect();
            TemplateExpansion {
                variables,
                uri,
                missing,
                error: None,
            }
        }
        Err(error) => TemplateExpansion {
            variables: Vec::new(),
            uri: String::new(),
            missing: Vec::new(),
            error: Some(error.to_string()),
        },
    }
}

fn expand_in(template: &str, context: &SimpleContext) -> Result<String, TemplateError> {
    let template = parse(template)?;
    let expanded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        template
            .expand::<UriSpec, _>(context)
            .map(|uri| uri.to_string())
    }));
    Ok(expanded.map_err(|_| TemplateError::ExpansionFailed)??)
}

/// The expressions of a template iri-string validated, as (operator, variable list). In a valid
/// template `{` opens an expression and nothing else, and `}` closes it.
fn expressions(template: &UriTemplateStr) -> impl Iterator<Item = (Option<char>, &str)> {
    template.as_str().split('{').skip(1).filter_map(|rest| {
        let body = rest.split_once('}')?.0;
        let first = body.chars().next()?;
        Some(if "+#./;?&".contains(first) {
            (Some(first), &body[1..])
        } else {
            (None, body)
        })
    })
}

#[cfg(test)]
mod tests {
    use iri_string::template::simple_context::Value;

    use super::*;

    #[test]
    fn a_panic_inside_the_expansion_is_an_error_not_a_crash() {
        // The fuzz target's second find (fuzz/regressions/uri_template/crash-prefix-overflow).
        let template = "file://{+rootg}{#frag}.e{t}x{;p:4}{?q}";
        let given = values(&[("p", "1\u{FFFD}\u{FFFD}%"), ("q", "caf\u{e9}")]);
        let filled = fill(template, &given);
        assert!(
            filled.error.is_some() || !filled.uri.is_empty(),
            "{filled:?}"
        );
    }

    #[test]
    fn a_template_iri_string_panics_on_is_refused_as_not_ascii() {
        // The fuzz target's crash (fuzz/regressions/uri_template): "%" then a lone UTF-8 lead
        // byte, which iri-string 0.7.14's validator slices inside.
        let template = "demo:%\u{FFFD}/\u{1}{category}/{id}";
        assert!(matches!(
            variables(template),
            Err(TemplateError::NotAscii(6))
        ));
        assert!(fill(template, &BTreeMap::new()).error.is_some());
    }

    fn values(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn names(template: &str) -> Vec<(String, bool)> {
        variables(template)
            .unwrap()
            .into_iter()
            .map(|v| (v.name, v.required))
            .collect()
    }

    /// The values of RFC 6570's section 3.2.
    fn rfc_context() -> SimpleContext {
        let mut context = SimpleContext::new();
        for (name, value) in [
            ("var", "value"),
            ("hello", "Hello World!"),
            ("path", "/foo/bar"),
            ("x", "1024"),
            ("y", "768"),
            ("half", "50%"),
            ("empty", ""),
        ] {
            context.insert(name, value);
        }
        let list = |items: &[&str]| Value::List(items.iter().map(|s| s.to_string()).collect());
        context.insert("list", list(&["red", "green", "blue"]));
        context.insert(
            "keys",
            Value::Assoc(
                [("semi", ";"), ("dot", "."), ("comma", ",")]
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            ),
        );
        context.insert("empty_keys", Value::Assoc(Vec::new()));
        context
    }

    #[test]
    fn names_the_variables_of_every_kind_of_expression_once_in_order() {
        assert_eq!(
            names("demo://items/{category}/{id}"),
            [("category".into(), true), ("id".into(), true)]
        );
        assert_eq!(
            names("file://{+root}{/dir*}{?q,page}{&lang}{#frag}{.ext}{;p:3}{?q}"),
            [
                ("root".into(), true),
                ("dir".into(), false),
                ("q".into(), false),
                ("page".into(), false),
                ("lang".into(), false),
                ("frag".into(), false),
                ("ext".into(), false),
                ("p".into(), false),
            ]
        );
    }

    #[test]
    fn reads_prefixes_explode_and_literals() {
        assert_eq!(
            names("a{var:3}b{list*}"),
            [("var".into(), true), ("list".into(), true)]
        );
        assert_eq!(names("no/variables/here"), []);
    }

    #[test]
    fn refuses_malformed_templates_saying_where() {
        for bad in ["demo://{id", "demo://id}", "{}", "{=x}", "{a b}", "{a{b}"] {
            let error = variables(bad).expect_err(bad);
            assert!(error.to_string().contains("byte"), "{bad}: {error}");
            let filled = fill(bad, &BTreeMap::new());
            assert!(filled.error.is_some(), "{bad}");
            assert_eq!(filled.uri, "");
            assert!(filled.variables.is_empty());
        }
        // RFC 6570 allows prefixes of 1 to 9999; iri-string also reads `:0`, a prefix of nothing.
        assert_eq!(names("{x:0}"), [("x".into(), true)]);
        assert_eq!(expand("{x:0}", &values(&[("x", "value")])).unwrap(), "");
    }

    #[test]
    fn a_literal_outside_ascii_is_refused_and_a_value_outside_ascii_encoded() {
        // RFC 6570 lets a literal hold any Unicode character; iri-string, building URIs, takes
        // ASCII literals only and says where the first other one is.
        let error = variables("demo://café/{id}").unwrap_err();
        assert!(error.to_string().contains("10"), "{error}");
        assert_eq!(
            expand("demo://cafe/{id}", &values(&[("id", "é")])).unwrap(),
            "demo://cafe/%C3%A9"
        );
    }

    #[test]
    fn expands_the_rfc_6570_examples_up_to_level_3() {
        let context = rfc_context();
        for (template, expected) in [
            ("{var}", "value"),
            ("{hello}", "Hello%20World%21"),
            ("{half}", "50%25"),
            ("{+var}", "value"),
            ("{+hello}", "Hello%20World!"),
            ("{+half}", "50%25"),
            ("{+path}/here", "/foo/bar/here"),
            ("here?ref={+path}", "here?ref=/foo/bar"),
            ("map?{x,y}", "map?1024,768"),
            ("{x,hello,y}", "1024,Hello%20World%21,768"),
            ("{+x,hello,y}", "1024,Hello%20World!,768"),
            ("{#x,hello,y}", "#1024,Hello%20World!,768"),
            ("{#path:6}/here", "#/foo/b/here"),
            ("X{.var}", "X.value"),
            ("X{.x,y}", "X.1024.768"),
            ("{/var}", "/value"),
            ("{/var,x}/here", "/value/1024/here"),
            ("{;x,y}", ";x=1024;y=768"),
            ("{;x,y,empty}", ";x=1024;y=768;empty"),
            ("{?x,y}", "?x=1024&y=768"),
            ("{?x,y,empty}", "?x=1024&y=768&empty="),
            ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
            ("{var:3}", "val"),
            ("{var:30}", "value"),
            ("{/var:1,var}", "/v/value"),
        ] {
            assert_eq!(
                expand_in(template, &context).unwrap(),
                expected,
                "{template}"
            );
        }
    }

    #[test]
    fn expands_the_rfc_6570_level_4_examples_lists_and_associative_arrays() {
        let context = rfc_context();
        for (template, expected) in [
            ("{list}", "red,green,blue"),
            ("{list*}", "red,green,blue"),
            ("{keys}", "semi,%3B,dot,.,comma,%2C"),
            ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
            ("{+path:6}/here", "/foo/b/here"),
            ("{+list*}", "red,green,blue"),
            ("{+keys*}", "semi=;,dot=.,comma=,"),
            ("{#list*}", "#red,green,blue"),
            ("{#keys*}", "#semi=;,dot=.,comma=,"),
            ("X{.list*}", "X.red.green.blue"),
            ("X{.keys*}", "X.semi=%3B.dot=..comma=%2C"),
            ("{/var:1,var}", "/v/value"),
            ("{/list*}", "/red/green/blue"),
            ("{/list*,path:4}", "/red/green/blue/%2Ffoo"),
            ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
            ("{;hello:5}", ";hello=Hello"),
            ("{;list*}", ";list=red;list=green;list=blue"),
            ("{;keys*}", ";semi=%3B;dot=.;comma=%2C"),
            ("{?var:3}", "?var=val"),
            ("{?list}", "?list=red,green,blue"),
            ("{?list*}", "?list=red&list=green&list=blue"),
            ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
            ("{&var:3}", "&var=val"),
            ("{&list*}", "&list=red&list=green&list=blue"),
            ("{&keys*}", "&semi=%3B&dot=.&comma=%2C"),
            ("{?empty_keys*}", ""),
        ] {
            assert_eq!(
                expand_in(template, &context).unwrap(),
                expected,
                "{template}"
            );
        }
    }

    #[test]
    fn leaves_out_empty_and_missing_values() {
        let template = "demo://items/{category}/{id}";
        assert_eq!(
            expand(template, &values(&[("category", "games")])).unwrap(),
            "demo://items/games/"
        );
        assert_eq!(
            expand(
                "search{?q,page,lang}",
                &values(&[("q", "rust"), ("page", "")])
            )
            .unwrap(),
            "search?q=rust"
        );
        assert_eq!(expand("x{?q}", &BTreeMap::new()).unwrap(), "x");
    }

    #[test]
    fn encodes_utf_8_and_keeps_percent_escapes_only_where_reserved_characters_are_allowed() {
        let v = |value: &str| values(&[("v", value)]);
        assert_eq!(expand("{v}", &v("café")).unwrap(), "caf%C3%A9");
        assert_eq!(expand("{v}", &v("a/b c")).unwrap(), "a%2Fb%20c");
        assert_eq!(expand("{+v}", &v("a/b%20c")).unwrap(), "a/b%20c");
        assert_eq!(expand("{+v}", &v("100%")).unwrap(), "100%25");
        assert_eq!(
            expand(
                "demo://items/{category}/{id}",
                &values(&[("category", "sci fi"), ("id", "7")])
            )
            .unwrap(),
            "demo://items/sci%20fi/7"
        );
    }

    #[test]
    fn a_fill_says_which_required_variables_still_have_no_value() {
        let filled = fill(
            "demo://items/{category}/{id}{?sort}",
            &values(&[("category", "games"), ("id", "")]),
        );
        assert_eq!(filled.uri, "demo://items/games/");
        assert_eq!(filled.missing, ["id"]);
        assert_eq!(filled.error, None);
        assert_eq!(filled.variables.len(), 3);
        let done = fill(
            "demo://items/{category}/{id}{?sort}",
            &values(&[("category", "games"), ("id", "7")]),
        );
        assert!(done.missing.is_empty());
        assert_eq!(done.uri, "demo://items/games/7");
    }
}
