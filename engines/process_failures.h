// How an engine process fails, as values (process.h declares the public ones): the kind of a
// spawn failure, why a write failed, a signal's words, and the Error kinds they map to.
//
// Contract: every function here is pure (no I/O) and total: an OS error or signal number it does
// not know still gets a kind and words.
//
// Decisions:
// - Kinds say what the caller can do, not where the failure came from (base/expected.h): a
//   program that is not there is NotFound; a resource short now (descriptors, processes,
//   memory) is Unavailable, worth a retry; anything else about the engine's file or setup is
//   Invalid, to be fixed in its configuration.
// - A write to an engine that closed its input or exited is a Conflict (the engine's state
//   forbids it), one that timed out Unavailable (the engine is busy), any other OS error Io.
// - The words are the ones the messages always had: callers and tests compare them, so they
//   are built here once, from the values.
#pragma once

#include <string>

#include "base/expected.h"
#include "engines/process.h"

namespace referee::engines {

// strerror's words for an errno value.
std::string errno_text(int os_error);

ErrorKind write_error_kind(WriteFault fault);

}  // namespace referee::engines
