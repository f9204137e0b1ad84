//! Prints the resolved IR of every module, one line per item: `cargo run -p mcp-schema-generator --example ir_dump -- upstream`.

#![forbid(unsafe_code)]

fn main() {
    let up = std::env::args().nth(1).unwrap();
    let config = generator::config::Config::from_toml(&std::fs::read_to_string(generator::config::CONFIG_PATH).unwrap()).unwrap();
    // Upstream inputs from the synced folder; overlays from the repository.
    let mut inputs = Vec::new();
    for m in &config.modules {
        inputs.push(generator::Input { path: m.input.clone(), source: std::fs::read_to_string(format!("{up}/{}", m.input)).unwrap() });
        if let Some(o) = &m.overlay {
            inputs.push(generator::Input { path: o.clone(), source: std::fs::read_to_string(o).unwrap() });
        }
    }
    match generator::type_space(&inputs, &config) {
        Ok(space) => for m in &space.modules {
            println!("== {} ({} items, {} requests, {} notifications)", m.name, m.items.len(), m.requests.len(), m.notifications.len());
            for i in &m.items {
                let k = match &i.kind {
                    generator::ir::ItemKind::Union(u) => format!("union {:?} [{}]", match &u.dispatch { generator::ir::Dispatch::Tag(t) => format!("tag {} {:?} absent={:?} other={:?}", t.field, t.cases.iter().map(|c| &c.0).collect::<Vec<_>>(), t.on_absent, t.on_other), d => format!("{d:?}") }, u.variants.iter().map(|v| v.name.clone()).collect::<Vec<_>>().join(", ")),
                    generator::ir::ItemKind::Struct(s) => format!("struct {{{}}}", s.fields.iter().map(|f| format!("{}{}{}", f.name, if f.optional {"?"} else {""}, f.literal.as_ref().map(|l| format!("={}", l.describe())).unwrap_or_default())).collect::<Vec<_>>().join(", ")),
                    generator::ir::ItemKind::StringEnum(e) => format!("enum {:?} open={}", e.values, e.open),
                    generator::ir::ItemKind::Alias(t) => format!("alias {t:?}"),
                    generator::ir::ItemKind::Const(l) => format!("const {}", l.describe()),
                };
                println!("  {} : {}", i.name, k);
            }
        },
        Err(d) => println!("{d}"),
    }
}
