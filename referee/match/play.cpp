// The console game of `referee play`: see play.h for both screens and every decision.
#include "match/play.h"

#include <chrono>
#include <cstdio>
#include <istream>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>

#include "games/mancala.h"
#include "match/match.h"
#include "protocol/messages.h"

namespace referee::match {

namespace {

using SteadyClock = std::chrono::steady_clock;

const char* seat_word(int player) {
  return player == 1 ? "SUD" : "NORD";
}

std::string trim(const std::string& text) {
  const char* blanks = " \t\r\n\f\v";
  const auto first = text.find_first_not_of(blanks);
  if (first == std::string::npos) return {};
  return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

// A hole number typed on the seed's screen: one or two decimal digits, 0..12.
std::optional<int> hole_entry(const std::string& text) {
  if (text.empty() || text.size() > 2) return std::nullopt;
  int n = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  if (n > 12) return std::nullopt;
  return n;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

std::string score_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Hole counts (index = hole − 1) read back from a mancala::draw_2x6 drawing in the seed's words.
std::vector<int> holes_of_drawing(const std::string& drawing) {
  std::vector<int> holes(12, 0);
  std::istringstream lines(drawing);
  std::string line;
  while (std::getline(lines, line)) {
    const bool north = line.rfind("NORD [", 0) == 0;
    const bool south = line.rfind("SUD  [", 0) == 0;
    if (!north && !south) continue;
    int i = 0;
    for (auto open = line.find('['); open != std::string::npos && i < 6;
         open = line.find('[', open + 1), ++i) {
      const int hole = north ? 12 - i : 1 + i;
      holes[static_cast<std::size_t>(hole - 1)] = std::atoi(line.c_str() + open + 1);
    }
  }
  return holes;
}

// One game at the console.
class Console {
 public:
  Console(const PlaySetup& setup, games::State state, std::istream& in, std::ostream& out)
      : setup_(setup),
        state_(std::move(state)),
        in_(in),
        out_(out),
        title_(seed_title(setup.game)) {
    for (std::size_t s = 0; s < setup.seats.size(); ++s) clocks_.emplace_back(setup.tc);
  }

  PlayResult run() {
    const auto game_start = SteadyClock::now();
    for (std::size_t s = 0; s < setup_.seats.size(); ++s)
      if (auto* e = setup_.seats[s].engine) e->start_log(game_start, static_cast<int>(s + 1));
    if (!prepare_engines()) return result_;
    begin_record();
    if (result_.termination.empty()) {
      if (title_.empty())
        generic_loop();
      else
        seed_loop();
    } else {
      print_forfeit();
    }
    finish();
    return result_;
  }

 private:
  bool is_engine(int player) const {
    return setup_.seats[static_cast<std::size_t>(player - 1)].engine != nullptr;
  }
  const std::string& name_of(int player) const {
    return setup_.seats[static_cast<std::size_t>(player - 1)].name;
  }

  // setgame/uginewgame/isready for every engine seat. An engine that does not play the game stops
  // everything (nothing recorded); one that fails here forfeits the game.
  bool prepare_engines() {
    for (std::size_t s = 0; s < setup_.seats.size(); ++s) {
      EngineSession* e = setup_.seats[s].engine;
      if (!e) continue;
      const int seat = static_cast<int>(s + 1);
      std::string detail;
      Fault f =
          e->declares(setup_.game.name()) ? e->prepare(setup_.game, detail) : Fault::Unsupported;
      if (f == Fault::Unsupported) {
        out_ << "engine '" << name_of(seat) << "' does not play " << setup_.game.name() << "\n";
        result_.not_started = true;
        result_.termination = "unsupported";
        result_.reason = "engine '" + name_of(seat) + "' does not play " + setup_.game.name();
        return false;
      }
      if (f != Fault::None && result_.termination.empty())
        forfeit(seat, f, detail, " before the game");
    }
    return true;
  }

  void begin_record() {
    if (!setup_.store) return;
    record_.game = setup_.game.canonical();
    record_.start_position = setup_.start_position;
    for (const auto& seat : setup_.seats) record_.players.push_back(seat.name);
    for (const auto& seat : setup_.seats)
      if (seat.engine) record_.time_control = setup_.tc.to_string();
    // One control for every seat (console games have one): stored by seat all the same.
    if (!record_.time_control.empty())
      record_.time_controls.assign(record_.players.size(), record_.time_control);
    auto id = setup_.store->begin_game(record_);
    if (!id) {
      note_db(id.error());
      return;
    }
    result_.game_id = *id;
  }

  void note_db(const std::string& error) {
    if (result_.db_error.empty()) result_.db_error = error;
  }

  void record(const std::string& move, int player, long time_ms, long clock_ms,
              const std::string& info, const char* source) {
    result_.moves.push_back(move);
    if (!result_.game_id) return;
    storage::MoveRecord m{
        static_cast<int>(result_.moves.size()), player, move, time_ms, clock_ms, info, source, ""};
    auto st = setup_.store->add_move(result_.game_id, m);
    if (!st) note_db(st.error());
  }

  void finish() {
    if (result_.termination.empty() && state_.is_terminal()) {
      auto o = state_.outcome();
      result_.finished = true;
      result_.ranks = o.ranks;
      result_.scores = o.scores;
      result_.termination = o.reason;
      result_.reason = o.reason == "agreement" ? "ended by agreement at the console"
                                               : "game over by the rules (" + o.reason + ")";
    }
    if (result_.finished) {
      protocol::GameOver over{protocol::outcome_word(result_.ranks), result_.termination};
      const std::string line = protocol::format(protocol::RefereeMessage{over});
      for (const auto& seat : setup_.seats)
        if (seat.engine) seat.engine->send(line);
    }
    if (!result_.game_id) return;
    for (const auto& seat : setup_.seats)
      if (seat.engine) {
        auto st = setup_.store->add_logs(result_.game_id, seat.engine->take_log());
        if (!st) note_db(st.error());
      }
    record_.status =
        result_.finished ? storage::GameStatus::Finished : storage::GameStatus::Unfinished;
    record_.ranks = result_.ranks;
    record_.scores = result_.scores;
    record_.termination = result_.termination;
    record_.reason = result_.reason;
    record_.plies = static_cast<std::int64_t>(result_.moves.size());
    auto st = setup_.store->finish_game(result_.game_id, record_);
    if (!st) note_db(st.error());
  }

  void forfeit(int seat, Fault fault, const std::string& detail, const std::string& when = "") {
    faulty_ = seat;
    result_.finished = true;
    result_.ranks = forfeit_ranks(state_.num_players(), seat);
    result_.scores = state_.material();
    result_.termination = fault_name(fault);
    const auto* engine = setup_.seats[static_cast<std::size_t>(seat - 1)].engine;
    result_.reason = engine ? forfeit_reason(*engine, fault, detail, when)
                            : name_of(seat) + " " + fault_name(fault) + ": " + detail;
  }

  void interrupted(const std::string& why) {
    result_.finished = false;
    result_.termination = "interrupted";
    result_.reason = why;
  }

  // Asks the engine of `player` for a move and plays it; false when the game ended instead
  // (forfeit or interruption, result_ filled).
  bool engine_move(int player, std::string& move) {
    const auto seat = static_cast<std::size_t>(player - 1);
    const std::vector<TimeControl> tcs(clocks_.size(), setup_.tc);
    EngineTurn turn = engine_turn(state_, *setup_.seats[seat].engine, clocks_, tcs,
                                  setup_.start_position, result_.moves, setup_.stop);
    if (turn.interrupted) {
      interrupted("interrupted while an engine was thinking");
      return false;
    }
    if (!turn.played) {
      forfeit(player, turn.fault, turn.detail);
      return false;
    }
    record(turn.reply.move, player, static_cast<long>(turn.reply.elapsed.count()), turn.clock_ms,
           turn.reply.info, "engine");
    move = turn.reply.move;
    return true;
  }

  void play_forced(int player) {
    const std::string move = state_.legal_moves().front();
    (void)state_.apply(move);
    record(move, player, -1, -1, "", "forced");
  }

  // A person's move, applied; false at the end of input.
  template <class Handle>
  bool human_move(int player, Handle handle) {
    const auto asked = SteadyClock::now();
    std::string line;
    while (std::getline(in_, line)) {
      const std::string entry = trim(line);
      std::string move;
      if (!handle(entry, move)) continue;
      if (move.empty()) return true;  // ended by agreement
      const auto ms = std::chrono::duration_cast<Millis>(SteadyClock::now() - asked);
      record(move, player, static_cast<long>(ms.count()), -1, "", "engine");
      return true;
    }
    interrupted("end of input at the console");
    return false;
  }

  // An engine's failure: on the seed's screen one line in its style, then the result.
  void print_forfeit() {
    if (!result_.finished || !faulty_) return;
    if (title_.empty())
      out_ << "player " << faulty_ << " forfeits: " << reason_headline(result_.reason) << "\n"
           << generic_result_line();
    else
      out_ << seat_word(faulty_) << " perd par forfait (" << result_.termination << ").\n"
           << seed_result_line();
  }

  // ---- the seed's screen ----

  std::string seed_board() const {
    return state_.is_terminal() ? seed_final_board(state_) : state_.draw(games::BoardWords::Seed);
  }

  void seed_loop() {
    out_ << seed_board();
    while (!state_.is_terminal()) {
      const int player = state_.current_player();
      if (state_.is_forced()) {
        play_forced(player);
        if (state_.is_terminal()) out_ << seed_board();
        continue;
      }
      const auto before = state_.material();
      const std::string turn = std::string("A ") + seat_word(player) + " de jouer.\n";
      out_ << turn;
      if (is_engine(player)) {
        std::string move;
        if (!engine_move(player, move)) {
          print_forfeit();
          return;
        }
        out_ << move << "\n";
      } else {
        bool agreed = false;
        auto handle = [&](const std::string& entry, std::string& move) {
          if (entry == "?") {
            out_ << join(state_.legal_moves()) << "\n" << turn;
            return false;
          }
          auto hole = hole_entry(entry);
          if (hole && *hole == 0 && state_.agree_to_end()) {
            agreed = true;
            return true;
          }
          if (hole && *hole > 0 && state_.apply(std::to_string(*hole))) {
            move = std::to_string(*hole);
            return true;
          }
          out_ << turn;
          return false;
        };
        if (!human_move(player, handle)) return;
        if (agreed) break;
      }
      const auto after = state_.material();
      out_ << seat_word(player) << " a ramassé "
           << score_text(after[player - 1] - before[player - 1]) << " bille(s).\n";
      for (int p = 1; p <= 2; ++p)
        if (p != player && after[p - 1] > before[p - 1])
          out_ << seat_word(p) << " a ramassé " << score_text(after[p - 1] - before[p - 1])
               << " bille(s).\n";
      out_ << seed_board();
    }
    if (state_.is_terminal()) {
      if (state_.outcome().reason == "agreement") out_ << seed_board();
      out_ << seed_result_line();
    }
  }

  std::string seed_result_line() const {
    const std::vector<int> ranks = result_.finished ? result_.ranks : state_.outcome().ranks;
    if (ranks.size() != 2 || ranks[0] == ranks[1]) return "Partie nulle.\n";
    return std::string(seat_word(ranks[0] == 1 ? 1 : 2)) + " gagne la partie " + title_ + ".\n";
  }

  // ---- every other game ----

  void generic_loop() {
    out_ << state_.draw(games::BoardWords::English);
    while (!state_.is_terminal()) {
      const int player = state_.current_player();
      const std::string who = "player " + std::to_string(player);
      if (state_.is_forced()) {
        play_forced(player);
        out_ << who << " plays " << result_.moves.back() << " (forced)\n"
             << state_.draw(games::BoardWords::English);
        continue;
      }
      const std::string form = state_.setup_form();
      out_ << who << " to move" << (form.empty() ? "" : ": setup " + form) << "\n";
      if (is_engine(player)) {
        std::string move;
        if (!engine_move(player, move)) {
          print_forfeit();
          return;
        }
        out_ << who << " plays " << move << "\n";
      } else {
        bool agreed = false;
        auto handle = [&](const std::string& entry, std::string& move) {
          if (entry.empty()) return false;
          if (entry == "?" || entry == "moves") {
            if (!form.empty())
              out_ << "setup: " << form << "\n";
            else
              out_ << "legal moves: " << join(state_.legal_moves()) << "\n";
            return false;
          }
          if (entry == "0" && !state_.apply("0")) {
            auto st = state_.agree_to_end();
            if (st) {
              agreed = true;
              return true;
            }
            out_ << "cannot end here: " << st.error() << "\n";
            return false;
          }
          if (entry == "0") {
            move = entry;  // "0" was a legal move of this game, played above
            return true;
          }
          auto st = state_.apply(entry);
          if (!st) {
            out_ << st.error() << " (? lists the legal moves)\n";
            return false;
          }
          move = entry;
          return true;
        };
        if (!human_move(player, handle)) {
          out_ << "input ended: the game is left unfinished\n";
          return;
        }
        if (agreed) break;
        out_ << who << " plays " << result_.moves.back() << "\n";
      }
      out_ << state_.draw(games::BoardWords::English);
    }
    out_ << generic_result_line();
  }

  std::string generic_result_line() const {
    std::vector<int> ranks;
    std::vector<double> scores;
    std::string reason;
    if (result_.finished) {
      ranks = result_.ranks;
      scores = result_.scores;
      reason = result_.termination;
    } else {
      auto o = state_.outcome();
      ranks = o.ranks;
      scores = o.scores;
      reason = o.reason;
    }
    std::string out = "game over (" + reason + "): ";
    int winners = 0, winner = 0;
    for (std::size_t i = 0; i < ranks.size(); ++i)
      if (ranks[i] == 1) ++winners, winner = static_cast<int>(i + 1);
    if (winners == 1)
      out += "player " + std::to_string(winner) + " wins";
    else if (winners == static_cast<int>(ranks.size()))
      out += "draw";
    else {
      out += "ranks";
      for (int r : ranks) out += " " + std::to_string(r);
    }
    out += ", scores";
    for (double s : scores) out += " " + score_text(s);
    return out + "\n";
  }

  const PlaySetup& setup_;
  games::State state_;
  std::istream& in_;
  std::ostream& out_;
  std::string title_;
  std::vector<PlayerClock> clocks_;
  PlayResult result_;
  storage::GameRecord record_;
  int faulty_ = 0;  // the seat that forfeited
};

}  // namespace

std::string seed_title(const games::Game& game) {
  static const std::map<std::string, std::string> titles = {
      {"awale", "d'Awalé"}, {"awale-v1", "d'Awalé (variante 1)"},  {"wali", "de Wali"},
      {"oware", "d'Oware"}, {"tamtam-apachi", "de Tamtam-Apachi"}, {"kakua", "de Kakua"},
      {"owani", "d'Owani"}};
  auto it = titles.find(game.name());
  if (it == titles.end() || game.num_players() != 2) return {};
  return it->second;
}

std::string seed_final_board(const games::State& state) {
  std::vector<int> holes = holes_of_drawing(state.draw(games::BoardWords::Seed));
  const auto material = state.material();
  const auto scores = state.outcome().scores;
  for (int p = 1; p <= 2; ++p) {
    const auto first = holes.begin() + (p == 1 ? 0 : 6);
    int row = 0;
    for (auto h = first; h != first + 6; ++h) row += *h;
    const double counted = scores[static_cast<std::size_t>(p - 1)];
    const double own = material[static_cast<std::size_t>(p - 1)];
    if (row > 0 && counted != own && counted == own + row) std::fill(first, first + 6, 0);
  }
  return games::mancala::draw_2x6(holes, static_cast<int>(scores[1]), static_cast<int>(scores[0]),
                                  games::BoardWords::Seed);
}

PlayResult play_console(const PlaySetup& setup, std::istream& in, std::ostream& out) {
  auto start = setup.start_position.empty() ? Expected<games::State>(setup.game.initial_state())
                                            : setup.game.parse_state(setup.start_position);
  if (!start) {
    PlayResult r;
    r.not_started = true;
    r.termination = "interrupted";
    r.reason = "bad start position: " + start.error();
    out << r.reason << "\n";
    return r;
  }
  if (static_cast<int>(setup.seats.size()) != setup.game.num_players()) {
    PlayResult r;
    r.not_started = true;
    r.termination = "interrupted";
    r.reason = "the game has " + std::to_string(setup.game.num_players()) + " players, " +
               std::to_string(setup.seats.size()) + " seats given";
    out << r.reason << "\n";
    return r;
  }
  return Console(setup, std::move(*start), in, out).run();
}

}  // namespace referee::match
