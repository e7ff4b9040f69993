// seeded_playouts GAME COUNT [--first N] [--max-plies P] [--bench]
//
// Plays COUNT random playouts of GAME through the C++ rules library and prints one line per
// playout; tests/python/test_playouts.py plays the same playouts through the Python module and
// compares the lines. The random choice is defined identically on both sides:
//   LCG: x <- x * 6364136223846793005 + 1442695040888963407 (mod 2^64), starting from x = seed,
//        stepped once before every draw; a draw is x >> 33.
//   Each ply: a setup move is sample_setup(draw); otherwise legal_moves()[draw % count].
// Playout i uses seed = first + i. It stops when the game is over or after P plies (default: no
// cap but the game's own maxplies).
// Line: "<seed> <plies> <crc32 of every position string, each followed by '\n', start included>
//        <final position> <reason or '-'> <ranks or '-'> <scores or '-'>" (CRC-32 as zlib's).
// --bench prints only "playouts N plies M seconds S" (no per-playout lines) for the benchmark.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "games/game.h"

namespace {

using referee::games::State;

constexpr std::uint64_t kMul = 6364136223846793005ULL;
constexpr std::uint64_t kAdd = 1442695040888963407ULL;

std::array<std::uint32_t, 256> crc_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t n = 0; n < 256; ++n) {
    std::uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320U ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}

// zlib.crc32(data, crc)
std::uint32_t crc32(std::uint32_t crc, const std::string& data) {
  static const auto table = crc_table();
  crc = ~crc;
  for (unsigned char ch : data) crc = table[(crc ^ ch) & 0xFFU] ^ (crc >> 8);
  return ~crc;
}

std::string format_double(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

struct Playout {
  State state;
  int plies = 0;
  std::uint32_t crc = 0;
};

Playout play(const referee::games::Game& game, std::uint64_t seed, long max_plies, bool digest) {
  Playout p{game.initial_state()};
  std::uint64_t x = seed;
  auto draw = [&x] {
    x = x * kMul + kAdd;
    return x >> 33;
  };
  if (digest) p.crc = crc32(0, p.state.to_string() + "\n");
  while (!p.state.is_terminal() && (max_plies < 0 || p.plies < max_plies)) {
    std::string move;
    if (!p.state.setup_form().empty()) {
      move = p.state.sample_setup(draw());
    } else {
      const auto moves = p.state.legal_moves();
      move = moves[draw() % moves.size()];
    }
    if (!p.state.apply(move)) {
      std::fprintf(stderr, "seeded_playouts: move '%s' refused in %s\n", move.c_str(),
                   p.state.to_string().c_str());
      std::exit(1);
    }
    ++p.plies;
    if (digest) p.crc = crc32(p.crc, p.state.to_string() + "\n");
  }
  return p;
}

std::string outcome_fields(const State& s) {
  if (!s.is_terminal()) return "- - -";
  const auto o = s.outcome();
  std::string ranks, scores;
  for (std::size_t i = 0; i < o.ranks.size(); ++i)
    ranks += (i ? "," : "") + std::to_string(o.ranks[i]);
  for (std::size_t i = 0; i < o.scores.size(); ++i)
    scores += (i ? "," : "") + format_double(o.scores[i]);
  return o.reason + " " + ranks + " " + scores;
}

bool parse_number(const char* text, long& out) {
  char* end = nullptr;
  out = std::strtol(text, &end, 10);
  return *text != '\0' && *end == '\0' && out >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: seeded_playouts GAME COUNT [--first N] [--max-plies P] [--bench]\n");
    return 2;
  }
  auto game = referee::games::make_game(argv[1]);
  if (!game) {
    std::fprintf(stderr, "seeded_playouts: %s\n", game.error().c_str());
    return 2;
  }
  long count = 0, first = 0, max_plies = -1;
  bool bench = false;
  if (!parse_number(argv[2], count)) {
    std::fprintf(stderr, "seeded_playouts: COUNT must be a non-negative integer, got '%s'\n",
                 argv[2]);
    return 2;
  }
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--bench") {
      bench = true;
    } else if ((arg == "--first" || arg == "--max-plies") && i + 1 < argc) {
      long& target = arg == "--first" ? first : max_plies;
      if (!parse_number(argv[++i], target)) {
        std::fprintf(stderr, "seeded_playouts: %s needs a non-negative integer\n", arg.c_str());
        return 2;
      }
    } else {
      std::fprintf(stderr, "seeded_playouts: unknown argument '%s'\n", arg.c_str());
      return 2;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  long long plies = 0;
  for (long i = 0; i < count; ++i) {
    const auto seed = static_cast<std::uint64_t>(first + i);
    const auto p = play(*game, seed, max_plies, !bench);
    plies += p.plies;
    if (!bench)
      std::printf("%llu %d %08x %s %s\n", static_cast<unsigned long long>(seed), p.plies,
                  static_cast<unsigned>(p.crc), p.state.to_string().c_str(),
                  outcome_fields(p.state).c_str());
  }
  if (bench) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("playouts %ld plies %lld seconds %.6f\n", count, plies, s);
  }
  return 0;
}
