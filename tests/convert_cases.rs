//! One test per kind of case in the table of conversions (`generated/CONVERSIONS.md`).
