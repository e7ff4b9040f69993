#include "games/registry.h"

#include "games/awale.h"
#include "games/chongkak.h"
#include "games/felli.h"
#include "games/kakua.h"
#include "games/kalaha.h"
#include "games/katra.h"
#include "games/lontu_holo.h"
#include "games/mefuhva.h"
#include "games/mweso.h"
#include "games/owani.h"
#include "games/oware.h"
#include "games/pallankuli.h"
#include "games/perali_kotuma.h"
#include "games/permainan.h"
#include "games/tamtam_apachi.h"
#include "games/wali.h"

namespace referee::games {

// In the order of rules.md: the mancala games, then the capture board games.
const std::vector<GameEntry>& registry() {
  static const std::vector<GameEntry> table = {
      // clang-format off
      {"awale", {}, "Awale, seed 004 base rule", awale_params(), 100, 2, &model_of<AwaleCore>},
      {"awale-v1", {}, "Awale, seed 004 variant 1 (captures before the last hole only)", awale_params(), 100, 2, &model_of<AwaleCore>},
      {"oware", {}, "Oware, seed 004 (relay sowing, fours to the hole's owner, 2/3/4/6 players)", oware_params(), 100, 6, &model_of<OwareCore>},
      {"tamtam-apachi", {}, "Tamtam-Apachi, seed 004 (relay sowing, capture opposite an empty own hole)", {}, 100, 2, &model_of<TamtamApachiCore>},
      {"kakua", {}, "Kakua, seed 004 (chained sowings, one seed kept per sowing)", {}, 100, 2, &model_of<KakuaCore>},
      {"mweso", {}, "Mweso, seed 004 (4x8, free setups, relay, captures, aloka direction choices)", {}, 200, 2, &model_of<MwesoCore>},
      {"wali", {}, "Wali, seed 004 (sow from either row, capture the last hole only)", wali_params(), 100, 2, &model_of<WaliCore>},
      {"owani", {}, "Owani, seed 004 (relay from own row, captures of 2 or 3)", {}, 100, 2, &model_of<OwaniCore>},
      {"mefuhva", {}, "Mefuhva, seed 004 (4x16, capture facing an empty inner hole)", {}, 100, 2, &model_of<MefuhvaCore>},
      {"katra", {}, "Katra, seed 004 (4x8, capture of a smaller facing inner hole)", {}, 100, 2, &model_of<KatraCore>},
      {"chongkak", {}, "Chongkak, seed 004 (2x7 relay sowing, qui perd gagne)", {}, 200, 2, &model_of<ChongkakCore>},
      {"lontu-holo", {}, "Lontu Holo, seed 004 (circuits by columns, mirrored setup, fours given away)", {}, 200, 2, &model_of<LontuHoloCore>},
      {"kalaha", {}, "Kalaha, seed 004 (6 seeds, stores, extra turns)", {}, 100, 2, &model_of<KalahaCore>},
      {"pallankuli", {}, "Pallankuli, seed 001 (2x7, clockwise relay, cows, rounds, blind holes)", pallankuli_params(), 50, 2, &model_of<PallankuliCore>},
      {"perali-kotuma", {}, "Perali Kotuma, seed 000 (alquerque with four triangles, 23 v 23)", perali_params(), 20, 2, &model_of<PeraliCore>},
      {"kotu-ellima", {}, "Kotu Ellima, seed 000 (alquerque with four triangles, 24 v 24)", perali_params(), 20, 2, &model_of<PeraliCore>},
      {"felli", {}, "Felli, seed 003 (13 points, men and flying kings, one capture per turn)", {}, 20, 2, &model_of<FelliCore>},
      {"permainan", {"surakarta"}, "Permainan (Surakarta), seed 002 (captures along the corner circuits)", {}, 20, 2, &model_of<PermainanCore>},
      // clang-format on
  };
  return table;
}

const GameEntry* find_entry(std::string_view name) {
  for (const auto& e : registry()) {
    if (e.name == name) return &e;
    for (const auto& a : e.aliases)
      if (a == name) return &e;
  }
  return nullptr;
}

std::vector<ParamSpec> all_params(const GameEntry& e) {
  auto params = e.params;
  params.push_back({"first", "1", {}, 1, e.max_players, "the player who moves first"});
  params.push_back({"nocapture", std::to_string(e.nocapture_default), {}, 0, 100000,
                    "plies without a capture that end the game by exhaustion (0: no limit)"});
  params.push_back({"maxplies", "2000", {}, 1, 1000000, "hard limit on the game's length"});
  return params;
}

}  // namespace referee::games
