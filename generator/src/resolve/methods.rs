//! The method registry: which request and notification types carry which
//! `method`, and what a request's successful response holds.

use crate::config::{Config, CONFIG_PATH};
use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::ir::*;
use crate::parse::Literal;

pub fn collect(space: &mut TypeSpace, config: &Config, diags: &mut Diagnostics) {
    for mi in 0..space.modules.len() {
        let module = &space.modules[mi];
        let mut requests = Vec::new();
        let mut notifications = Vec::new();
        for item in &module.items {
            let ItemKind::Struct(s) = &item.kind else { continue };
            let Some(method) = s.fields.iter().find(|f| f.name == "method" && !f.optional) else { continue };
            let Some(Literal::Str(method)) = &method.literal else { continue };
            let this = |name: &str| TypeRef { module: module.name.clone(), name: name.to_string() };
            if let Some(stem) = item.name.strip_suffix("Request") {
                let response = space.struct_of(&Ty::Named(this(&format!("{stem}ResultResponse"))));
                let result = if let Some(f) = response.and_then(|(_, r)| r.fields.iter().find(|f| f.name == "result")) {
                    Some(f.ty.clone())
                } else if space.item(&this(&format!("{stem}Result"))).is_some() {
                    Some(Ty::Named(this(&format!("{stem}Result"))))
                } else if let Some(name) = config.request_results.get(&item.name) {
                    if name == "{}" {
                        Some(Ty::Object)
                    } else if space.item(&this(name)).is_none() {
                        diags.push(Diagnostic::new(&item.location, format!("{CONFIG_PATH}: request_results maps `{}` to `{name}`, which this module does not define", item.name)));
                        None
                    } else {
                        Some(Ty::Named(this(name)))
                    }
                } else {
                    diags.push(
                        Diagnostic::new(&item.location, format!("no result type known for request `{}` (`{method}`)", item.name))
                            .with_hint(format!("add `{} = \"<ResultType>\"` under [request_results] in {CONFIG_PATH}", item.name)),
                    );
                    None
                };
                requests.push(MethodEntry { method: method.clone(), type_name: item.name.clone(), result });
            } else if item.name.ends_with("Notification") {
                notifications.push(MethodEntry { method: method.clone(), type_name: item.name.clone(), result: None });
            }
        }
        space.modules[mi].requests = requests;
        space.modules[mi].notifications = notifications;
    }
}
