//! Unit tests of the command line's parsing: each subcommand's flags read, and each misuse refused
//! with its usage error.

use super::*;
use crate::args::Protocol;
use crate::versions::{EXTENSIONS, VERSIONS};

fn p(args: &[&str]) -> Result<Command, UsageError> {
    parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

#[test]
fn parses_check_flags() {
    let Command::Check(a) = p(&["check", "--protocol=2025-06-18", "--ext", "apps", "--roundtrip", "--strict", "a.jsonl", "-"]).unwrap() else { panic!() };
    assert_eq!(a.protocol, Protocol::Fixed(2));
    assert_eq!(a.extensions.iter().map(|&i| EXTENSIONS[i].name).collect::<Vec<_>>(), ["apps"]);
    assert!(a.roundtrip && a.strict && a.validate && !a.json);
    assert_eq!(a.files, vec!["a.jsonl", "-"]);
    // Given twice, the last wins, as the hand parser had it.
    let Command::Check(a) = p(&["check", "--max-findings", "3", "--max-findings=7", "--ext=apps", "--ext", "apps", "x"]).unwrap() else { panic!() };
    assert_eq!((a.max_findings, a.extensions.len()), (7, 1));
}

#[test]
fn rejects_bad_check_usage() {
    assert!(p(&["check", "--protocol", "1999-01-01", "x"]).is_err());
    assert!(p(&["check", "--ext", "nope", "x"]).is_err());
    assert!(p(&["check", "--bogus", "x"]).is_err());
    assert!(p(&["check"]).is_err());
    assert!(p(&["check", "--type", "NoSuchType", "x"]).is_err());
    assert!(p(&["check", "--protocol", "2024-11-05", "--type", "ResourceLink", "x"]).is_err());
    assert!(p(&["check", "--type", "McpUiResourceMeta", "x"]).is_err());
    assert!(p(&["check", "--ext", "apps", "--type", "McpUiResourceMeta", "x"]).is_ok());
    assert!(p(&["check", "--strict=yes", "x"]).is_err());
    assert!(p(&["frobnicate"]).is_err());
    assert!(p(&[]).is_err());
    assert!(p(&["check", "--max-findings", "0", "x"]).is_err());
    assert!(p(&["check", "--max-findings=ten", "x"]).is_err());
    assert!(matches!(p(&["check", "--max-findings=7", "x"]), Ok(Command::Check(a)) if a.max_findings == 7));
}

#[test]
fn usage_errors_name_the_option() {
    for (args, named) in [
        (&["check", "--protocol", "1999-01-01", "x"][..], "--protocol"),
        (&["check", "--max-findings=0", "x"][..], "--max-findings"),
        (&["check", "--bogus", "x"][..], "--bogus"),
        (&["convert", "--to", "1999-01-01", "x"][..], "--to"),
        (&["proxy", "--to", "1999-01-01", "--", "x"][..], "--to"),
        (&["proxy", "--listen", "a:1", "--", "x"][..], "--http"),
    ] {
        let e = p(args).unwrap_err();
        assert!(e.0.contains(named), "{args:?}: {e}");
    }
}

#[test]
fn help_and_version_are_printed() {
    for args in [&["--help"][..], &["-h"], &["help"], &["check", "--help"], &["proxy", "--help"], &["convert", "-h"], &["help", "proxy"]] {
        let Ok(Command::Print(text)) = p(args) else { panic!("{args:?}") };
        assert!(text.contains("Usage: mcp-schema"), "{args:?}: {text}");
    }
    let Ok(Command::Print(text)) = p(&["--version"]) else { panic!() };
    assert_eq!(text, format!("mcp-schema {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn parses_convert_arguments() {
    let Command::Convert(a) = p(&["convert", "--to", "2025-06-18", "--from=2024-11-05", "--max-findings", "3", "x.jsonl", "-"]).unwrap() else { panic!() };
    assert_eq!((VERSIONS[a.to].name, a.from, a.max_findings, a.files.len()), ("2025-06-18", Protocol::Fixed(0), 3, 2));
    for bad in [&["x"][..], &["--to", "1999-01-01", "x"], &["--to", "2025-06-18"], &["--to", "2025-06-18", "--bogus", "x"], &["--to"], &["--to", "2025-06-18", "--max-findings", "0", "x"]] {
        let args: Vec<&str> = ["convert"].iter().chain(bad).copied().collect();
        assert!(p(&args).is_err(), "{bad:?}");
    }
}

#[test]
fn parses_proxy_arguments() {
    let Ok(Command::Proxy(a)) = p(&["proxy", "--ext", "apps", "--record=r.jsonl", "--json", "--findings", "f", "--max-findings", "9", "--", "node", "s.js", "--", "x"]) else { panic!("not parsed") };
    assert_eq!(a.record.as_deref(), Some("r.jsonl"));
    assert_eq!(a.findings.as_deref(), Some("f"));
    assert!(a.check.json);
    assert_eq!(a.check.extensions.len(), 1);
    assert_eq!(a.command, ["node", "s.js", "--", "x"]);
    // The checker child gets the same checking options back.
    assert_eq!(a.check_options, ["--ext=apps", "--json", "--max-findings=9"]);
    for bad in [
        &["node"][..],
        &["--"][..],
        &["--record", "--", "x"][..],
        &["--record=", "--", "x"][..],
        &["server", "--", "x"][..],
        &["--type", "Tool", "--", "x"][..],
        &["--bogus", "--", "x"][..],
        &["--record", "a", "--findings", "a", "--", "x"][..],
        &["--http", "--listen", "127.0.0.1:0", "--upstream", "http://h/mcp", "--", "x"][..],
        &["--http", "--listen", "127.0.0.1:0"][..],
        // The guard layer's options are the HTTP proxy's, not the stdio proxy's or the bridge's.
        &["--enforce", "--", "x"][..],
        &["--metrics", "127.0.0.1:0", "--", "x"][..],
        &["--http", "--listen", "127.0.0.1:0", "--upstream", "http://h/mcp", "--to", "2025-06-18", "--enforce"][..],
        &["--http", "--listen", "127.0.0.1:0", "--upstream", "http://h/mcp", "--metrics="][..],
    ] {
        let args: Vec<&str> = ["proxy"].iter().chain(bad).copied().collect();
        assert!(p(&args).is_err(), "{bad:?} accepted");
    }
    let Ok(Command::Proxy(a)) = p(&["proxy", "--http", "--listen", "127.0.0.1:0", "--upstream", "http://h/mcp", "--strict"]) else { panic!() };
    assert!(a.http.is_some() && a.command.is_empty() && a.check.strict);
    assert!(a.http.as_ref().is_some_and(|t| !t.enforce && t.metrics.is_none()), "audit, no metrics, by default");
    let Ok(Command::Proxy(a)) = p(&["proxy", "--http", "--listen", "127.0.0.1:0", "--upstream", "http://h/mcp", "--enforce", "--metrics", "127.0.0.1:9"]) else { panic!() };
    assert!(a.http.as_ref().is_some_and(|t| t.enforce && t.metrics.as_deref() == Some("127.0.0.1:9")));
    let Ok(Command::Proxy(a)) = p(&["proxy", "--checker-child=-x", "--strict", "--", "-"]) else { panic!() };
    assert_eq!((a.checker_child.as_deref(), a.check.strict), (Some("-x"), true));
}

#[test]
fn completions_cover_every_subcommand_and_option() {
    let Ok(Command::Completions(bash)) = p(&["completions", "bash"]) else { panic!() };
    for word in ["check", "proxy", "convert", "--max-findings", "--upstream", "--from"] {
        assert!(bash.contains(word), "{word} missing from the bash completions");
    }
    let Ok(Command::Completions(zsh)) = p(&["completions", "zsh"]) else { panic!() };
    assert!(zsh.contains("#compdef mcp-schema"));
    assert!(p(&["completions", "tcsh"]).is_err());
    assert!(p(&["completions"]).is_err());
}

#[test]
fn each_subcommand_is_registered_once_under_the_name_clap_gives_it() {
    let clap_names: Vec<String> = cli_command().get_subcommands().map(|c| c.get_name().to_string()).collect();
    assert_eq!(clap_names, NAMES, "a Cmd::NAME differs from clap's name for its variant");
    assert_eq!(p(&[]).unwrap_err().0, format!("no command given (the commands are {})", listed(NAMES)));
    assert_eq!(listed(&["a", "b", "c"]), "`a`, `b` and `c`");
    assert_eq!(listed(&["a"]), "`a`");
    assert_eq!(usage_line(&["nope".to_string()]), format!("mcp-schema <{}> ...", NAMES.join("|")));
    assert!(usage_line(&["nope".to_string()]).starts_with("mcp-schema <check|proxy|convert|rules|completions"));
    assert_eq!(usage_line(&["proxy".to_string(), "--http".to_string()]), proxy::HTTP_USAGE);
}
