//! `mcp-schema`: see `mcp-schema --help` and cli/README.md.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(mcp_schema_cli::run(&args));
}
