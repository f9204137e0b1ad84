//! Validation of incoming requests against a protocol version's rules, by the version's name: the
//! engine learns the version at run time (from `initialize` or from a request's `_meta`), and each
//! version module is behind its own feature.

use serde_json::Value;

use mcp_spec_types::rpc::Envelope;
use mcp_spec_types::runtime::RpcError;
use mcp_spec_types::tree::Node;
use mcp_spec_types::validate::Validate;

// One row per module of the generated crate (`for_each_module!`): a version's entry is compiled
// when the engine's feature of the same name is on; extensions and overlays are not versions.
macro_rules! built {
    (@ [$($out:tt)*]) => { &[$($out)*] };
    (@ [$($out:tt)*] version $name:ident $feature:literal $protocol:literal $base:tt; $($rest:tt)*) => {
        built!(@ [$($out)* #[cfg(feature = $feature)] $protocol,] $($rest)*)
    };
    (@ [$($out:tt)*] $kind:ident $name:ident $feature:literal $protocol:tt $base:tt; $($rest:tt)*) => {
        built!(@ [$($out)*] $($rest)*)
    };
    ($($rows:tt)*) => { built!(@ [] $($rows)*) };
}

/// The protocol versions whose modules this build has, oldest first: the `version` rows of the
/// generated crate's module table, so a new version needs no edit here.
pub(crate) const BUILT: &[&str] = mcp_spec_types::for_each_module!(built);

macro_rules! checks {
    ($( $kind:ident $name:ident $feature:literal $protocol:tt $base:tt; )*) => {
        /// The -32602 answer to a request that breaks `version`'s rules (first violation's pointer and rule
        /// in the message, all of them, bounded, in `data`), as `rpc::read_message_checked` answers it.
        /// `None` when it keeps them, when the version defines no such request (the application answers
        /// it), or when this build has no module for the version. `message` is the request as it
        /// came, a node of the line's tree.
        #[allow(unused_variables)] // a build without version modules
        pub(crate) fn request(version: &str, method: &str, message: Node<'_>) -> Option<RpcError> {
            $( checks!(@one $kind $name $feature $protocol, version, method, message); )*
            None
        }
    };
    (@one version $name:ident $feature:literal $protocol:literal, $version:ident, $method:ident, $message:ident) => {
        #[cfg(feature = $feature)]
        {
            if $version == $protocol {
                return with::<mcp_spec_types::$name::ClientMessage>($method, $message);
            }
        }
    };
    (@one $kind:ident $name:ident $feature:literal $protocol:tt, $version:ident, $method:ident, $message:ident) => {};
}
mcp_spec_types::for_each_module!(checks);

#[allow(dead_code)] // unused in a build without version modules
fn with<M: Envelope + Validate>(method: &str, message: Node<'_>) -> Option<RpcError> {
    if !M::is_request_method(method) {
        return None;
    }
    // The message as it came (keys the envelope does not name are no rule's business), read
    // on its tree: no `Value` of it.
    let reader = mcp_spec_types::rpc::Reader::default();
    let report = mcp_spec_types::validate::validate_node::<M>(message, &reader.options);
    // The answer's error depends on the report alone (the id and method are the caller's).
    (!report.is_valid()).then(|| mcp_spec_types::rpc::invalid_params::<Value>(&Value::Null, &report).error)
}

#[cfg(test)]
mod tests {
    use mcp_spec_types::modules::{ModuleKind, MODULES};

    /// The engine's versions are the generated crate's version modules whose features are on
    /// (every one with `full`): a version added there is served here without an edit.
    #[test]
    fn built_is_the_version_modules_of_the_generated_crate() {
        let versions: Vec<&str> = MODULES.iter().filter(|m| m.kind == ModuleKind::Version).filter_map(|m| m.protocol).collect();
        for version in super::BUILT {
            assert!(versions.contains(version), "{version} is no version module");
        }
        #[cfg(feature = "full")]
        assert_eq!(super::BUILT, versions.as_slice());
        println!("{} of {} version modules built", super::BUILT.len(), versions.len());
    }
}
