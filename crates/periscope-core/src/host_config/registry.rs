//! The MCP registry's `server.json`: a published server's packages (npm, PyPI, OCI, NuGet),
//! each run with the usual runner (`npx`, `uvx`, `docker run`, `dnx`), and its remotes (URLs
//! with headers). Also a registry list (`{"servers": [{"server": {…}}]}`). One entry per
//! package and per remote. Read only: a server.json is its publisher's to write.

use serde_json::{Map, Value};

use super::draft::{self, Collector, Draft, DraftTransport};
use super::variables::{Expander, Syntax};
use super::{
    Dialect, ImportContext, ImportError, ImportPreview, ImportRefusal, NeededValue, ValuePlace,
    top_keys,
};

pub(super) fn import(value: &Value) -> Result<ImportPreview, ImportError> {
    let context = ImportContext {
        env: &|_| None,
        home: None,
        workspace_folder: None,
    };
    let expander = Expander {
        syntax: Syntax::Literal,
        context: &context,
        inputs: &[],
    };
    let mut collector = Collector::new(Dialect::Registry);
    let servers: Vec<&Value> = match value.get("servers") {
        Some(Value::Array(list)) => list
            .iter()
            .map(|item| item.get("server").unwrap_or(item))
            .collect(),
        _ if value.is_object() => vec![value],
        _ => {
            return Err(ImportError::UnknownShape {
                expected: "a server.json (name, packages, remotes)".into(),
                found: top_keys(value),
            });
        }
    };
    for server in servers {
        read_server(server, &expander, &mut collector);
    }
    Ok(collector.finish())
}

fn read_server(server: &Value, expander: &Expander<'_>, collector: &mut Collector) {
    let name = server
        .get("title")
        .or_else(|| server.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("server")
        .to_string();
    let packages = server
        .get("packages")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let remotes = server
        .get("remotes")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if packages.is_empty() && remotes.is_empty() {
        collector.refuse(&name, ImportRefusal::NothingToRun);
        return;
    }
    let several = packages.len() + remotes.len() > 1;
    for package in &packages {
        let kind = package
            .get("registryType")
            .and_then(Value::as_str)
            .unwrap_or("?");
        let shown = if several {
            format!("{name} ({kind})")
        } else {
            name.clone()
        };
        match package_draft(&shown, package) {
            Ok(draft) => collector.add(draft, expander),
            Err(reason) => collector.refuse(&shown, reason),
        }
    }
    for (i, remote) in remotes.iter().enumerate() {
        let shown = match (several, remotes.len()) {
            (false, _) => name.clone(),
            (true, 1) => format!("{name} (remote)"),
            (true, _) => format!("{name} (remote {})", i + 1),
        };
        match remote_draft(&shown, remote) {
            Ok(draft) => collector.add(draft, expander),
            Err(reason) => collector.refuse(&shown, reason),
        }
    }
}

fn object(value: &Value) -> Result<&Map<String, Value>, ImportRefusal> {
    value.as_object().ok_or(ImportRefusal::NotAnObject)
}

fn package_draft(name: &str, package: &Value) -> Result<Draft, ImportRefusal> {
    let package = object(package)?;
    let kind = draft::string(package, "registryType")?.unwrap_or_default();
    let identifier = draft::string(package, "identifier")?.ok_or(ImportRefusal::MissingCommand)?;
    let version = draft::string(package, "version")?;
    if let Some(transport) = package
        .get("transport")
        .and_then(|t| t.get("type"))
        .and_then(Value::as_str)
        && transport != "stdio"
    {
        return Err(ImportRefusal::PackageServesHttp {
            transport: transport.to_string(),
        });
    }
    let mut needs = Vec::new();
    let mut declared_secret = Vec::new();
    let mut notes = Vec::new();
    let env = variables(
        package.get("environmentVariables"),
        ValuePlace::Env,
        &mut declared_secret,
        &mut needs,
        &mut notes,
    )?;
    let runtime_hint = draft::string(package, "runtimeHint")?;
    let (runner, reference, mut args) = match kind.as_str() {
        "npm" => (
            "npx",
            versioned(&identifier, "@", &version),
            vec!["-y".to_string()],
        ),
        "pypi" => ("uvx", versioned(&identifier, "==", &version), vec![]),
        "nuget" => ("dnx", versioned(&identifier, "@", &version), vec![]),
        "oci" => {
            // A container sees only the variables passed to it.
            let mut args = vec!["run".to_string(), "-i".to_string(), "--rm".to_string()];
            for (name, _) in &env {
                args.extend(["-e".to_string(), name.clone()]);
            }
            let has_tag = identifier
                .rsplit('/')
                .next()
                .is_some_and(|last| last.contains(':'));
            let reference = match (&version, has_tag) {
                (Some(v), false) => format!("{identifier}:{v}"),
                _ => identifier.clone(),
            };
            ("docker", reference, args)
        }
        other => {
            return Err(ImportRefusal::UnknownPackageType {
                registry_type: other.to_string(),
            });
        }
    };
    let runtime_args = arguments(package.get("runtimeArguments"), 0, &mut needs)?;
    if !runtime_args.is_empty() {
        // The publisher's runtime arguments replace the runner's defaults (npx's -y).
        if kind == "npm" {
            args.clear();
        }
        args.extend(runtime_args);
    }
    args.push(reference);
    let offset = args.len();
    args.extend(arguments(
        package.get("packageArguments"),
        offset,
        &mut needs,
    )?);
    Ok(Draft {
        name: name.to_string(),
        transport: DraftTransport::Stdio {
            command: runtime_hint.unwrap_or_else(|| runner.to_string()),
            args,
            env,
            cwd: None,
        },
        declared_secret,
        needs,
        notes,
    })
}

fn versioned(identifier: &str, separator: &str, version: &Option<String>) -> String {
    match version {
        Some(v) if !v.is_empty() && v != "latest" => format!("{identifier}{separator}{v}"),
        _ => identifier.to_string(),
    }
}

/// Runtime or package arguments: positional values, `--name value` pairs. One without a value
/// is written as `<hint>` and listed to be typed.
fn arguments(
    list: Option<&Value>,
    offset: usize,
    needs: &mut Vec<NeededValue>,
) -> Result<Vec<String>, ImportRefusal> {
    let mut out = Vec::new();
    for argument in list.and_then(Value::as_array).into_iter().flatten() {
        let argument = object(argument)?;
        let value = draft::string(argument, "value")?.or(draft::string(argument, "default")?);
        let hint = draft::string(argument, "valueHint")?;
        let mut push_value = |out: &mut Vec<String>, fallback: &str| match &value {
            Some(v) => out.push(v.clone()),
            None => {
                let placeholder =
                    format!("<{}>", hint.clone().unwrap_or_else(|| fallback.to_string()));
                needs.push(NeededValue {
                    place: ValuePlace::Argument((offset + out.len() + 1) as u32),
                    placeholder: placeholder.clone(),
                    prompt: draft::string(argument, "description").ok().flatten(),
                    password: argument
                        .get("isSecret")
                        .and_then(Value::as_bool)
                        .unwrap_or(false),
                });
                out.push(placeholder);
            }
        };
        match draft::string(argument, "type")?.as_deref() {
            Some("named") => {
                let name = draft::string(argument, "name")?.unwrap_or_default();
                out.push(name.clone());
                if value.is_some() || hint.is_some() {
                    push_value(&mut out, &name);
                }
            }
            _ => push_value(&mut out, "value"),
        }
    }
    Ok(out)
}

/// Environment variables or headers: the value, else the default; one without either is kept
/// empty when required (to be typed) and left out with a note when optional.
fn variables(
    list: Option<&Value>,
    place: fn(String) -> ValuePlace,
    declared_secret: &mut Vec<String>,
    needs: &mut Vec<NeededValue>,
    notes: &mut Vec<String>,
) -> Result<Vec<(String, String)>, ImportRefusal> {
    let mut out = Vec::new();
    for variable in list.and_then(Value::as_array).into_iter().flatten() {
        let variable = object(variable)?;
        let Some(name) = draft::string(variable, "name")? else {
            continue;
        };
        let value = draft::string(variable, "value")?.or(draft::string(variable, "default")?);
        let required = variable
            .get("isRequired")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let secret = variable
            .get("isSecret")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if secret {
            declared_secret.push(name.clone());
        }
        match value {
            Some(value) => out.push((name, value)),
            None if required => {
                needs.push(NeededValue {
                    place: place(name.clone()),
                    placeholder: format!("<{name}>"),
                    prompt: draft::string(variable, "description").ok().flatten(),
                    password: secret,
                });
                out.push((name, String::new()));
            }
            None => notes.push(format!("optional {name} has no default: left out")),
        }
    }
    Ok(out)
}

fn remote_draft(name: &str, remote: &Value) -> Result<Draft, ImportRefusal> {
    let remote = object(remote)?;
    let kind = draft::string(remote, "type")?.unwrap_or_else(|| "streamable-http".into());
    let mode =
        draft::transport_mode(&kind)?.ok_or(ImportRefusal::UnknownTransport { transport: kind })?;
    let url = draft::string(remote, "url")?.ok_or(ImportRefusal::MissingUrl)?;
    let mut declared_secret = Vec::new();
    let mut needs = Vec::new();
    let mut notes = Vec::new();
    let headers = variables(
        remote.get("headers"),
        ValuePlace::Header,
        &mut declared_secret,
        &mut needs,
        &mut notes,
    )?;
    Ok(Draft {
        name: name.to_string(),
        transport: DraftTransport::Http { url, headers, mode },
        declared_secret,
        needs,
        notes,
    })
}
