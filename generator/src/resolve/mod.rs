//! Stage 3: syntax declarations -> the type space.
//!
//! `lower` turns each module's declarations into items (flattening `extends`,
//! `Omit`, intersections, `typeof` and indexed access, and naming inline types);
//! `unions` then decides how every union is read; `methods` builds the method
//! registry; `checks` rejects what Rust or the config cannot take; `layout` last
//! decides what the emitters need the whole type space for (keyed unions, boxing,
//! sharing between modules).

pub mod checks;
pub mod layout;
mod lower;
mod methods;
mod unions;

use crate::config::Config;
use crate::diagnostics::Diagnostics;
use crate::ir::TypeSpace;
use crate::parse::File;

/// Resolves parsed files (one per configured module, same order) into a type space.
pub fn resolve(files: &[File], config: &Config) -> Result<TypeSpace, Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut space = TypeSpace::default();
    for (file, module) in files.iter().zip(&config.modules) {
        let m = lower::lower_module(file, module, config, &space, &mut diags);
        space.modules.push(m);
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    checks::self_containing_unions(&space, &mut diags);
    if !diags.is_empty() {
        return Err(diags);
    }
    unions::classify(&mut space, &mut diags);
    methods::collect(&mut space, config, &mut diags);
    checks::names(&space, config, &mut diags);
    checks::prelude_names(&space, config, &mut diags);
    checks::constraints(&space, &mut diags);
    checks::configured_checks(&space, config, &mut diags);
    if diags.is_empty() {
        space.layout = layout::decide(&space, config);
    }
    diags.into_result(space)
}
