//! What the lint's tests and benchmarks share: the corpus's generator.
pub mod corpus;
