//! The Streamable HTTP server adapter (being written).
