//! The AI turn: from a chat message to streamed, committed edits.
//!
//! This crate will hold the model providers (any OpenAI-compatible endpoint through async-openai), the
//! conversation agent and its tools (`create_resume`, `patch_resume`), the patch tool that streams
//! operations through `redline-stream` and `redline-patch` into `redline-store`, and the replay server that
//! tests and the demo use in place of a model.
//!
//! It is empty for now: the AI turn is its own issue, built on the reader, the stabilizer and the store.
