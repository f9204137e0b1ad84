//! Between parse and resolve: apply a proposal overlay (a small TypeScript file
//! of the project's own) to a base schema, giving the declarations of a new
//! module. The base module itself is generated from the unchanged base file.

use crate::diagnostics::{Diagnostic, Diagnostics, Location};
use crate::parse::{Decl, DeclKind, File, TagKind, TypeExpr, TypeKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Directive {
    /// No directive: a new declaration.
    Add,
    Replace,
    Merge,
    Extend,
}

fn directive(decl: &Decl) -> Result<Directive, String> {
    let count = decl.doc.tags.iter().filter(|t| t.kind == TagKind::Overlay).count();
    if count > 1 {
        return Err(format!("`{}` has {count} `@overlay` directives; give one", decl.name));
    }
    if decl.doc.has_tag(TagKind::OverlayRemove) && decl.doc.tag(TagKind::Overlay).map(str::trim) != Some("merge") {
        return Err(format!("`@overlayRemove` on `{}` needs `@overlay merge`", decl.name));
    }
    match decl.doc.tag(TagKind::Overlay).map(str::trim) {
        None => Ok(Directive::Add),
        Some("replace") => Ok(Directive::Replace),
        Some("merge") => Ok(Directive::Merge),
        Some("extend") => Ok(Directive::Extend),
        Some(other) => Err(format!("unknown overlay directive `@overlay {other}` (expected replace, merge or extend)")),
    }
}

/// The base file with the overlay applied; new declarations come after the base's.
pub fn apply(base: &File, overlay: &File) -> Result<File, Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut out = base.clone();
    if let Some(imp) = overlay.imports.first() {
        diags.push(Diagnostic::new(&imp.location, "overlays cannot import; they see the base schema's declarations"));
    }
    for decl in &overlay.decls {
        let found = out.decls.iter().position(|d| d.name == decl.name);
        let result = directive(decl).and_then(|d| match (d, found) {
            (Directive::Add, None) => {
                out.decls.push(strip_directives(decl));
                Ok(())
            }
            (Directive::Add, Some(_)) => Err(format!("`{}` is already in the base schema: say `@overlay replace` or `@overlay merge`", decl.name)),
            (_, None) => Err(format!("the overlay changes `{}`, which the base schema does not have", decl.name)),
            (Directive::Replace, Some(i)) => {
                out.decls[i] = Decl { location: decl.location.clone(), ..strip_directives(decl) };
                Ok(())
            }
            (Directive::Merge, Some(i)) => merge(&mut out.decls[i], decl),
            (Directive::Extend, Some(i)) => extend(&mut out.decls[i], decl),
        });
        if let Err(msg) = result {
            diags.push(Diagnostic::new(&decl.location, msg));
        }
    }
    diags.into_result(out)
}

fn strip_directives(decl: &Decl) -> Decl {
    let mut d = decl.clone();
    d.doc.tags.retain(|t| !matches!(t.kind, TagKind::Overlay | TagKind::OverlayRemove));
    d
}

fn merge(base: &mut Decl, overlay: &Decl) -> Result<(), String> {
    let (DeclKind::Interface { extends, body }, DeclKind::Interface { extends: new_bases, body: new_body }) = (&mut base.kind, &overlay.kind) else {
        return Err(format!("`@overlay merge` needs `{}` to be an interface here and in the base", overlay.name));
    };
    if !new_bases.is_empty() {
        *extends = new_bases.clone();
    }
    let removed: Vec<String> = overlay.doc.tag(TagKind::OverlayRemove).unwrap_or("").split([' ', ',', '\n']).filter(|s| !s.is_empty()).map(str::to_string).collect();
    for name in &removed {
        if !body.members.iter().any(|m| &m.name == name) {
            return Err(format!("`@overlayRemove {name}`: `{}` has no own field `{name}` in the base", overlay.name));
        }
    }
    body.members.retain(|m| !removed.contains(&m.name));
    for m in &new_body.members {
        match body.members.iter_mut().find(|b| b.name == m.name) {
            Some(b) => *b = m.clone(),
            None => body.members.push(m.clone()),
        }
    }
    if new_body.index.is_some() {
        body.index = new_body.index.clone();
    }
    let own = strip_directives(overlay).doc;
    if !own.text.is_empty() {
        base.doc = own;
    }
    Ok(())
}

fn extend(base: &mut Decl, overlay: &Decl) -> Result<(), String> {
    let (DeclKind::Alias(target), DeclKind::Alias(added)) = (&mut base.kind, &overlay.kind) else {
        return Err(format!("`@overlay extend` needs `{}` to be a union alias here and in the base", overlay.name));
    };
    let mut members = match &target.kind {
        TypeKind::Union(ms) => ms.clone(),
        _ => vec![target.clone()],
    };
    match &added.kind {
        TypeKind::Union(ms) => members.extend(ms.iter().cloned()),
        _ => members.push(added.clone()),
    }
    *target = TypeExpr { location: target.location.clone(), kind: TypeKind::Union(members) };
    Ok(())
}

/// Adds the `[[union]]` entries of `module` to its parsed input, as if the input declared
/// `export type Name = A | B`. A member the input does not declare (nor import) is imported from
/// the module's one `[module.imports]` package, so it must be a type of the module bound to it.
pub fn add_declared_unions(file: &mut File, module: &crate::config::ModuleConfig, unions: &[crate::config::DeclaredUnion]) -> Result<(), Diagnostics> {
    let unions: Vec<_> = unions.iter().filter(|u| u.module == module.name).collect();
    if unions.is_empty() {
        return Ok(());
    }
    let path = format!("{} [[union]] of {}", crate::config::CONFIG_PATH, module.name);
    let names: std::collections::BTreeSet<String> = file.decls.iter().map(|d| d.name.clone()).chain(file.imports.iter().map(|i| i.local.clone())).collect();
    let known = |name: &str| names.contains(name);
    let mut imported: Vec<&str> = Vec::new();
    let mut text = String::new();
    for u in &unions {
        for m in &u.members {
            if !known(m) && !imported.contains(&m.as_str()) && !unions.iter().any(|v| &v.name == m) {
                imported.push(m);
            }
        }
    }
    if !imported.is_empty() {
        let mut packages = module.imports.keys();
        let (Some(package), None) = (packages.next(), packages.next()) else {
            let loc = Location { file: path, ..Location::default() };
            let msg = format!("the unions of `{}` name types its input does not declare ({}); they are imported from the module's one [module.imports] package, and it has none or several", module.name, imported.join(", "));
            return Err(Diagnostics(vec![Diagnostic::new(&loc, msg)]));
        };
        text.push_str(&format!("import type {{ {} }} from {package:?};\n", imported.join(", ")));
    }
    for u in &unions {
        let doc = u.doc.replace("*/", "* /");
        text.push_str(&format!("/** {doc} */\nexport type {} = {};\n", u.name, u.members.join(" | ")));
    }
    let added = crate::parse::parse_file(&path, &text)?;
    file.imports.extend(added.imports);
    for decl in added.decls {
        if known(&decl.name) {
            let msg = format!("`{}` is already declared by the input of `{}`; a [[union]] only adds types", decl.name, module.name);
            return Err(Diagnostics(vec![Diagnostic::new(&decl.location, msg)]));
        }
        file.decls.push(decl);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{DeclaredUnion, ModuleConfig};

    fn module(imports: &str) -> ModuleConfig {
        toml::from_str(&format!("name = \"ext\"\nfeature = \"ext\"\ninput = \"ext.ts\"\ntitle = \"t\"\n[imports]\n{imports}")).unwrap()
    }

    fn union(name: &str, members: &[&str]) -> DeclaredUnion {
        DeclaredUnion { module: "ext".into(), name: name.into(), doc: "d".into(), members: members.iter().map(|m| m.to_string()).collect(), reason: "r".into() }
    }

    fn input() -> File {
        let source = "import type { RequestId } from \"core\";\nexport interface A { method: \"a\" }\nexport interface B { method: \"b\" }\n";
        crate::parse::parse_file("ext.ts", source).unwrap()
    }

    #[test]
    fn a_declared_union_is_added_with_the_imports_it_needs() {
        let mut file = input();
        add_declared_unions(&mut file, &module("\"core\" = \"v1\""), &[union("Sent", &["A", "B", "Ping"]), union("Other", &["Sent"])]).unwrap();
        let names: Vec<&str> = file.decls.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["A", "B", "Sent", "Other"]);
        let imported: Vec<(&str, &str)> = file.imports.iter().map(|i| (i.module.as_str(), i.local.as_str())).collect();
        assert_eq!(imported, [("core", "RequestId"), ("core", "Ping")], "only the member the input lacks is imported");
        assert!(matches!(&file.decls[2].kind, DeclKind::Alias(_)));
    }

    #[test]
    fn a_declared_union_only_adds() {
        let mut file = input();
        let err = add_declared_unions(&mut file, &module("\"core\" = \"v1\""), &[union("A", &["B"])]).unwrap_err();
        assert!(err.0[0].message.contains("`A` is already declared"), "{err:?}");
        let err = add_declared_unions(&mut input(), &module(""), &[union("Sent", &["A", "Ping"])]).unwrap_err();
        assert!(err.0[0].message.contains("imported from the module's one [module.imports] package"), "{err:?}");
    }
}
