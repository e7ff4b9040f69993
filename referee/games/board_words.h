// The words the mancala drawings share (State::draw, game.h's BoardWords): the sides' names, the
// players' names and the "has N seeds" line, in the seed's French or in English.
//
// Decisions:
// - The seed's form is its console screen (rules.md §1 "Display" and each game's "Display"),
//   byte for byte: `referee play` prints it to a human at the terminal. English says the same
//   things with the same numbers in the same layout; only the words change.
// - Player 1 is South and player 2 North (rules.md §1), in both forms.
// - English counts its seeds ("1 seed", "2 seeds"); the seed writes "bille(s)" whatever the count.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "games/game.h"

namespace referee::games {

// The side of `player` (1 = South, 2 = North): "SUD"/"NORD", or "South"/"North".
std::string_view side_name(BoardWords words, int player);

// side_name padded with spaces to `width` characters: a row label of a drawing.
std::string side_label(BoardWords words, int player, std::size_t width);

// The longest side name of `words` (4 for the seed's, 5 for English): the 2x6 drawings' label
// column, which their number lines match.
std::size_t side_name_width(BoardWords words);

// Player `player` of a game of more than two (oware:players=3): "J3", or "P3".
std::string player_name(BoardWords words, int player);

// "NORD a 3 bille(s)" or "North has 3 seeds", for `who` (a side or player name), without the
// full stop: some drawings say more after it.
std::string has_seeds(BoardWords words, std::string_view who, int seeds);

}  // namespace referee::games
