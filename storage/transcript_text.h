// The stored text of one engine_transcripts row (storage::LogLine documents the format) and back:
// the one writer (Store::add_logs) and the one reader (Store::logs) of that text. Internal to
// storage/.
//
// Decisions (schema v9):
// - A `position` line the referee wrote that shares at least kMinShared leading bytes with an
//   earlier `position` line of the same row is stored as what it adds, "<stamp> + <back> <k>
//   <escaped rest>": the first k bytes of the line `back` lines above it in the row, then the
//   rest. A game's position lines each repeat every move before them, so stored whole they made a
//   transcript quadratic in the game's length (22 KB for a 90-ply awale game); as differences it
//   is linear. Any line may be referred to, so a line that is not an extension of the previous
//   one (a new game's start, a different start position) is stored with whatever prefix it shares.
// - Rows written before v9 have no '+' lines and read as before. A '+' line whose reference is
//   out of the row, not a '>' line, or shorter than k is an error naming the row's line, not a
//   line guessed or dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/expected.h"
#include "storage/store.h"

namespace referee::storage {

inline constexpr std::size_t kMinShared = 16;

// Appends the stored text of `lines` (all of one seat, in order) to `out`.
void encode_transcript(const std::vector<const LogLine*>& lines, std::string& out);

// The lines of one stored row, given `seat`, appended to `out`. Old rows ("<ms>" stamps, no '+'
// lines) read as before; a line without a direction is skipped as before.
Status decode_transcript(std::string_view text, int seat, std::vector<LogLine>& out);

}  // namespace referee::storage
