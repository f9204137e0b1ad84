//! The Streamable HTTP client adapter (being written).
