//! What Redline's tests and benchmarks make, never shipped: a data folder as years of use leave it
//! ([`year`]). A dev-dependency only; no shipping crate depends on it.

#![forbid(unsafe_code)]

pub mod year;
