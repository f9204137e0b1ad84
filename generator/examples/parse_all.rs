fn main() {
    for p in std::env::args().skip(1) {
        let src = std::fs::read_to_string(&p).unwrap();
        match generator::parse::parse_file(&p, &src) {
            Ok(f) => println!("{p}: {} decls, {} imports", f.decls.len(), f.imports.len()),
            Err(d) => println!("{d}"),
        }
    }
}
