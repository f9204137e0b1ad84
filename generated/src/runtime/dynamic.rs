//! Typed reading, writing and validation chosen by schema name at run time (feature `dynamic`):
//! each module's table of [`DynType`]s, generated, names these entry points.

use super::*;
use crate::tree::Node;
use crate::validate::{validate_json, validate_node, Options, Report, Validate};
use crate::write::WriteJson;

type Json<T> = Result<T, serde_json::Error>;

/// One type's run-time entry points.
pub struct DynType {
    pub name: &'static str,
    /// Reads JSON text; gives the schema name of what was read (a union's variant).
    pub read_json: fn(&str) -> Json<&'static str>,
    pub read_value: fn(&Value) -> Json<&'static str>,
    /// Reads and writes back.
    pub roundtrip_json: fn(&str) -> Json<(Value, &'static str)>,
    pub roundtrip_value: fn(&Value) -> Json<(Value, &'static str)>,
    pub validate: fn(&Value, &Options) -> Report,
    /// [`DynType::read_value`] from a compact tree.
    pub read_node: fn(Node<'_>) -> Json<&'static str>,
    /// Reads from a compact tree and writes back: the JSON text written.
    pub roundtrip_node: fn(Node<'_>) -> Json<(String, &'static str)>,
    /// [`DynType::validate`] on a compact tree.
    pub validate_node: fn(Node<'_>, &Options) -> Report,
}

impl DynType {
    pub const fn of<T: WriteJson + DeserializeOwned + SchemaType + Validate>(name: &'static str) -> DynType {
        DynType {
            name,
            read_json: read_json::<T>,
            read_value: read_value::<T>,
            roundtrip_json: roundtrip_json::<T>,
            roundtrip_value: roundtrip_value::<T>,
            validate: validate_json::<T>,
            read_node: read_node::<T>,
            roundtrip_node: roundtrip_node::<T>,
            validate_node: validate_node::<T>,
        }
    }
}

fn read_json<T: DeserializeOwned + SchemaType>(json: &str) -> Json<&'static str> {
    Ok(serde_json::from_str::<T>(json)?.schema_name())
}

fn read_value<T: DeserializeOwned + SchemaType>(v: &Value) -> Json<&'static str> {
    Ok(T::deserialize(v)?.schema_name())
}

fn roundtrip_json<T: WriteJson + DeserializeOwned + SchemaType>(json: &str) -> Json<(Value, &'static str)> {
    let t: T = serde_json::from_str(json)?;
    Ok((crate::write::tree(&t)?, t.schema_name()))
}

fn roundtrip_value<T: WriteJson + DeserializeOwned + SchemaType>(v: &Value) -> Json<(Value, &'static str)> {
    let t = T::deserialize(v)?;
    Ok((crate::write::tree(&t)?, t.schema_name()))
}

fn read_node<T: DeserializeOwned + SchemaType>(v: Node<'_>) -> Json<&'static str> {
    Ok(T::deserialize(v)?.schema_name())
}

fn roundtrip_node<T: WriteJson + DeserializeOwned + SchemaType>(v: Node<'_>) -> Json<(String, &'static str)> {
    let t = T::deserialize(v)?;
    Ok((crate::write::to_string(&t), t.schema_name()))
}

/// Looks a name up in a module's sorted table.
pub fn find(table: &'static [DynType], name: &str) -> Option<&'static DynType> {
    table.binary_search_by(|d| d.name.cmp(name)).ok().map(|i| &table[i])
}
