//! Host integration tests live in tests/.
