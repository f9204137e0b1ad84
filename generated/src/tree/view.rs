//! [`View`]: the read questions a `&Value` and a [`Node`] both answer the same way for the same JSON, for code
//! that takes either (a rule run on a message's tree and on a value kept from an earlier one).

use serde_json::Value;

use super::Node;

/// A JSON value read without knowing whether it is a `&'a Value` or a `Node<'a>`.
pub trait View<'a>: Copy {
    /// An object's value under `key`.
    fn get(self, key: &str) -> Option<Self>;
    fn as_str(self) -> Option<&'a str>;
    fn as_bool(self) -> Option<bool>;
    fn as_i64(self) -> Option<i64>;
    fn as_f64(self) -> Option<f64>;
    fn is_f64(self) -> bool;
}

impl<'a> View<'a> for &'a Value {
    fn get(self, key: &str) -> Option<Self> {
        Value::get(self, key)
    }
    fn as_str(self) -> Option<&'a str> {
        Value::as_str(self)
    }
    fn as_bool(self) -> Option<bool> {
        Value::as_bool(self)
    }
    fn as_i64(self) -> Option<i64> {
        Value::as_i64(self)
    }
    fn as_f64(self) -> Option<f64> {
        Value::as_f64(self)
    }
    fn is_f64(self) -> bool {
        Value::is_f64(self)
    }
}

impl<'a> View<'a> for Node<'a> {
    fn get(self, key: &str) -> Option<Self> {
        Node::get(self, key)
    }
    fn as_str(self) -> Option<&'a str> {
        Node::as_str(self)
    }
    fn as_bool(self) -> Option<bool> {
        Node::as_bool(self)
    }
    fn as_i64(self) -> Option<i64> {
        Node::as_i64(self)
    }
    fn as_f64(self) -> Option<f64> {
        Node::as_f64(self)
    }
    fn is_f64(self) -> bool {
        Node::is_f64(self)
    }
}
