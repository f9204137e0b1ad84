//! `mcp-schema`: see `mcp-schema --help` and cli/README.md.

// Checking allocates many small strings and maps; mimalloc makes it about 1.4x faster than the
// system allocator (see benches/throughput.rs).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(mcp_schema_cli::run(&args));
}
