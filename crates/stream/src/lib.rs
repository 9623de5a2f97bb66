//! Incremental JSON reading for streamed model output.
