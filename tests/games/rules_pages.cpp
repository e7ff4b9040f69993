#include "games/rules_pages.h"

#include <cctype>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <variant>

#include "games/game.h"
#include "protocol/messages.h"

namespace referee::games::pages {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) {
      if (start < text.size()) out.push_back(text.substr(start));
      break;
    }
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : " ") + i;
  return out;
}

// A fence line: up to three spaces, then ``` and an info string.
std::optional<std::string_view> fence_info(std::string_view line) {
  std::size_t i = 0;
  while (i < 3 && i < line.size() && line[i] == ' ') ++i;
  if (line.substr(i, 3) != "```") return std::nullopt;
  return trim(line.substr(i + 3));
}

std::string number_text(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// The protocol's words for a result: "p1win rules", "draw nocapture", "ranks 1,2,2 rules".
std::string result_text(const Outcome& o) {
  return protocol::outcome_word(o.ranks) + " " + o.reason;
}

std::string scores_text(const Outcome& o) {
  std::vector<std::string> items;
  for (double s : o.scores) items.push_back(number_text(s));
  return joined(items);
}

// Plays the moves the referee plays itself (forced pass, mirrored setup).
void play_forced(State& s) {
  while (!s.is_terminal() && s.is_forced()) {
    if (!s.apply(s.legal_moves().front()).ok()) return;
  }
}

}  // namespace

PageBlocks read_blocks(const std::string& page, std::string_view markdown) {
  PageBlocks out;
  std::optional<Block> open;
  bool in_other_fence = false;
  int other_line = 0;
  int number = 0;
  for (auto raw : lines_of(markdown)) {
    ++number;
    auto info = fence_info(raw);
    if (open) {
      if (info && info->empty()) {
        out.blocks.push_back(std::move(*open));
        open.reset();
        continue;
      }
      if (open->kind == "show") {  // a drawing: every line as written, leading spaces included
        auto text = raw;
        while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
        open->lines.push_back(BlockLine{number, "", std::string(text)});
        continue;
      }
      auto text = trim(raw);
      if (text.empty() || text.front() == '#') continue;
      BlockLine line{number, "", std::string(text)};
      auto colon = text.find(':');
      if (open->kind == "session") {
        if (text.substr(0, 3) == "R: " || text.substr(0, 3) == "E: ") {
          line.key = std::string(text.substr(0, 1));
          line.value = std::string(trim(text.substr(3)));
        }
      } else if (colon != std::string_view::npos) {
        line.key = std::string(trim(text.substr(0, colon)));
        line.value = std::string(trim(text.substr(colon + 1)));
      }
      open->lines.push_back(std::move(line));
      continue;
    }
    if (in_other_fence) {
      if (info && info->empty()) in_other_fence = false;
      continue;
    }
    if (!info) continue;
    if (*info == "example" || *info == "session") {
      open = Block{page, number, std::string(*info), {}, ""};
    } else if (info->substr(0, 5) == "show ") {
      open = Block{page, number, "show", {}, std::string(trim(info->substr(5)))};
    } else {
      in_other_fence = true;
      other_line = number;
    }
  }
  if (open)
    out.failures.push_back(page + ":" + std::to_string(open->line) + ": the ```" + open->kind +
                           " block is never closed");
  if (in_other_fence)
    out.failures.push_back(page + ":" + std::to_string(other_line) +
                           ": the code block is never closed");
  return out;
}

std::vector<std::string> check_show(const Block& block) {
  std::vector<std::string> failures;
  auto fail = [&](int line, const std::string& what) {
    failures.push_back(block.page + ":" + std::to_string(line) + ": " + what);
  };
  auto game = make_game(block.game);
  if (!game) {
    fail(block.line, game.error());
    return failures;
  }
  const std::string drawing = game->initial_state().draw(BoardWords::English);
  const auto expected = lines_of(drawing);
  if (block.lines.size() != expected.size())
    fail(block.line, "the drawing has " + std::to_string(block.lines.size()) +
                         " lines; `referee show " + block.game + "` draws " +
                         std::to_string(expected.size()));
  for (std::size_t i = 0; i < block.lines.size() && i < expected.size(); ++i) {
    const std::string& written = block.lines[i].value;
    const std::string want(expected[i]);
    // A note may follow the drawn line, two spaces or more after it.
    const bool same = written == want ||
                      (written.rfind(want, 0) == 0 && written.compare(want.size(), 2, "  ") == 0);
    if (!same)
      fail(block.lines[i].number, "`referee show " + block.game + "` draws '" + want + "' here");
  }
  return failures;
}

std::string example_game(const Block& block) {
  for (const auto& l : block.lines)
    if (l.key == "game") return l.value;
  return "";
}

std::vector<std::string> check_example(const Block& block) {
  std::vector<std::string> failures;
  auto fail = [&](int line, const std::string& what) {
    failures.push_back(block.page + ":" + std::to_string(line) + ": " + what);
  };
  std::optional<Game> game;
  std::optional<State> state;
  int checks = 0;
  for (const auto& l : block.lines) {
    if (l.key == "game") {
      if (game) {
        fail(l.number, "a second 'game:' line (one game per example)");
        return failures;
      }
      auto g = make_game(l.value);
      if (!g) {
        fail(l.number, g.error());
        return failures;
      }
      game = *g;
      continue;
    }
    if (!game) {
      fail(l.number, "an example starts with 'game: GAME'");
      return failures;
    }
    if (l.key == "rejected") {
      ++checks;
      if (game->parse_state(l.value)) fail(l.number, "position '" + l.value + "' was accepted");
      continue;
    }
    if (!state) {
      if (l.key != "position") {
        fail(l.number, "after 'game:' comes 'position: start' or 'position: POSITION'");
        return failures;
      }
      if (l.value == "start") {
        state = game->initial_state();
        continue;
      }
      auto s = game->parse_state(l.value);
      if (!s) {
        fail(l.number, s.error());
        return failures;
      }
      if (s->to_string() != l.value)
        fail(l.number, "position '" + l.value + "' is not canonical: it prints back as '" +
                           s->to_string() + "'");
      state = *s;
      continue;
    }
    State& s = *state;
    if (l.key == "moves") {
      auto list = words(l.value);
      if (list.empty()) fail(l.number, "'moves:' without moves");
      for (const auto& m : list) {
        auto played = s.apply(m);
        if (!played) {
          fail(l.number, "move '" + m + "' refused: " + played.error() + " (in position " +
                             s.to_string() + ")");
          return failures;
        }
      }
      continue;
    }
    ++checks;
    if (l.key == "position") {
      if (s.to_string() != l.value)
        fail(l.number, "expected position " + l.value + ", the rules give " + s.to_string());
    } else if (l.key == "legal") {
      auto got = joined(s.legal_moves());
      if (got != joined(words(l.value)))
        fail(l.number, "expected legal moves '" + l.value + "', the rules give '" + got + "'");
    } else if (l.key == "illegal") {
      auto list = words(l.value);
      if (list.empty()) fail(l.number, "'illegal:' without moves");
      for (const auto& m : list) {
        State copy = s;
        if (copy.apply(m)) fail(l.number, "move '" + m + "' was accepted");
        if (!(copy == s)) fail(l.number, "refusing '" + m + "' changed the state");
      }
    } else if (l.key == "player") {
      auto got = std::to_string(s.current_player());
      if (got != l.value)
        fail(l.number, "expected player " + l.value + " to move, the rules give " + got);
    } else if (l.key == "setup") {
      if (s.setup_form() != l.value)
        fail(l.number,
             "expected setup form '" + l.value + "', the rules give '" + s.setup_form() + "'");
    } else if (l.key == "forced") {
      auto got = joined(s.legal_moves());
      if (!s.is_forced() || got != l.value)
        fail(l.number, "expected the forced move '" + l.value + "', the rules give " +
                           (s.is_forced() ? "forced '" : "unforced '") + got + "'");
    } else if (l.key == "result") {
      if (!s.is_terminal())
        fail(l.number, "expected the game over (" + l.value + "), it goes on: " + s.to_string());
      else if (result_text(s.outcome()) != l.value)
        fail(l.number, "expected result '" + l.value + "', the rules give '" +
                           result_text(s.outcome()) + "'");
    } else if (l.key == "scores") {
      if (!s.is_terminal())
        fail(l.number, "'scores:' needs a finished game");
      else if (scores_text(s.outcome()) != joined(words(l.value)))
        fail(l.number, "expected scores '" + l.value + "', the rules give '" +
                           scores_text(s.outcome()) + "'");
    } else if (l.key == "agree") {
      State copy = s;
      auto agreed = copy.agree_to_end();
      if (l.value == "ok") {
        if (!agreed) fail(l.number, "agreement refused: " + agreed.error());
        s = copy;
      } else if (l.value == "refused") {
        if (agreed) fail(l.number, "agreement accepted");
      } else {
        fail(l.number, "'agree:' takes 'ok' or 'refused'");
      }
    } else if (l.key == "perft") {
      auto counts = words(l.value);
      if (counts.empty()) fail(l.number, "'perft:' without counts");
      for (std::size_t d = 0; d < counts.size(); ++d) {
        auto got = std::to_string(s.perft(static_cast<int>(d + 1)));
        if (got != counts[d])
          fail(l.number, "perft(" + std::to_string(d + 1) + ") is " + got + ", not " + counts[d]);
      }
    } else {
      fail(l.number, "unknown line '" + (l.key.empty() ? l.value : l.key + ":") +
                         "' (known: game position moves legal illegal player setup forced result "
                         "scores agree perft rejected)");
    }
  }
  if (!game)
    fail(block.line, "an example without 'game:'");
  else if (checks == 0)
    fail(block.line, "an example that checks nothing");
  return failures;
}

std::vector<std::string> check_session(const Block& block) {
  std::vector<std::string> failures;
  auto fail = [&](int line, const std::string& what) {
    failures.push_back(block.page + ":" + std::to_string(line) + ": " + what);
  };
  std::optional<Game> game;
  std::optional<State> sent;     // the position of the last `position` line
  std::optional<State> current;  // the game as it stands (after bestmove and forced moves)
  bool searching = false;        // a `go` awaits its bestmove
  std::string ready_token;       // an `isready` awaits its readyok
  for (const auto& l : block.lines) {
    if (l.key == "R") {
      auto parsed = protocol::parse_referee_line(l.value);
      if (!parsed) {
        fail(l.number, parsed.error());
        continue;
      }
      const auto& m = *parsed;
      if (auto* sg = std::get_if<protocol::SetGame>(&m)) {
        auto spec = protocol::spec_from_setgame(*sg);
        auto g = make_game(spec);
        if (!g) {
          fail(l.number, g.error());
          continue;
        }
        if (g->canonical() != spec)
          fail(l.number, "setgame carries every parameter in canonical order: setgame " +
                             protocol::format(protocol::setgame_from_spec(g->canonical())));
        game = *g;
      } else if (auto* pos = std::get_if<protocol::Position>(&m)) {
        if (!game) {
          fail(l.number, "position before setgame");
          continue;
        }
        auto s = state_after(*game, pos->fen.value_or(""), pos->moves);
        if (!s) {
          fail(l.number, s.error());
          sent.reset();
          continue;
        }
        sent = *s;
        current = *s;
        play_forced(*current);
      } else if (auto* go = std::get_if<protocol::Go>(&m)) {
        if (!sent) {
          fail(l.number, "go without a valid position");
          continue;
        }
        if (sent->is_terminal()) fail(l.number, "go on a finished game");
        if (sent->is_forced()) fail(l.number, "go for a forced move (the referee plays it)");
        if (go->player != sent->current_player())
          fail(l.number,
               "go player must be the player to move, " + std::to_string(sent->current_player()));
        const auto n = static_cast<std::size_t>(game->num_players());
        if (go->time_ms.size() != n || go->inc_ms.size() != n)
          fail(l.number, "go carries every player's time and increment (p1time..p" +
                             std::to_string(n) + "time, p1inc..p" + std::to_string(n) + "inc)");
        searching = true;
      } else if (auto* ready = std::get_if<protocol::IsReady>(&m)) {
        ready_token = ready->token;
      } else if (auto* over = std::get_if<protocol::GameOver>(&m)) {
        static const std::vector<std::string> kForfeits = {"resign", "time",  "illegal",
                                                           "crash",  "stall", "protocol"};
        bool forfeit = false;
        for (const auto& f : kForfeits) forfeit = forfeit || over->reason == f;
        if (forfeit) continue;
        if (!current || !current->is_terminal()) {
          fail(l.number, "gameover while the game goes on");
          continue;
        }
        auto want = result_text(current->outcome());
        if (over->outcome + " " + over->reason != want)
          fail(l.number, "the rules' result is 'gameover " + want + "'");
      } else if (std::holds_alternative<protocol::UnknownCommand>(m)) {
        fail(l.number, "unknown command '" + l.value + "'");
      }
    } else if (l.key == "E") {
      auto parsed = protocol::parse_engine_line(l.value);
      if (!parsed) {
        fail(l.number, parsed.error());
        continue;
      }
      const auto& m = *parsed;
      if (auto* best = std::get_if<protocol::BestMove>(&m)) {
        if (!searching) {
          fail(l.number, "bestmove without go");
          continue;
        }
        searching = false;
        if (best->move == "resign") continue;
        State next = *sent;
        auto played = next.apply(best->move);
        if (!played) {
          fail(l.number,
               "bestmove " + best->move + ": " + played.error() + " in " + sent->to_string());
          continue;
        }
        play_forced(next);
        current = next;
        sent.reset();
      } else if (auto* ok = std::get_if<protocol::ReadyOk>(&m)) {
        if (ok->token != ready_token) fail(l.number, "readyok must echo '" + ready_token + "'");
      } else if (std::holds_alternative<protocol::UnknownLine>(m)) {
        fail(l.number, "not a protocol line: '" + l.value + "'");
      }
    } else {
      fail(l.number, "a session line starts with 'R: ' or 'E: ': '" + l.value + "'");
    }
  }
  if (block.lines.empty()) fail(block.line, "an empty session");
  return failures;
}

std::vector<std::string> check_go_lines(const std::string& page, std::string_view markdown) {
  std::vector<std::string> failures;
  static const std::regex kPrefix(R"(^\s*[A-Z][^\s:]*:\s+)");
  bool in_code = false;
  int number = 0;
  for (auto raw : lines_of(markdown)) {
    ++number;
    if (fence_info(raw)) {
      in_code = !in_code;
      continue;
    }
    if (!in_code) continue;
    std::string text(raw);
    text = std::regex_replace(text, kPrefix, "", std::regex_constants::format_first_only);
    auto hash = text.find('#');
    if (hash != std::string::npos) text.erase(hash);
    if (text.rfind("go ", 0) != 0) continue;
    auto parsed = protocol::parse_referee_line(text);
    if (!parsed) continue;  // a syntax summary such as "go [player <k>] ..."
    auto* go = std::get_if<protocol::Go>(&*parsed);
    if (go && go->inc_ms.size() != go->time_ms.size())
      failures.push_back(page + ":" + std::to_string(number) +
                         ": a go line sends every player's increment with his time: " + text);
  }
  return failures;
}

std::vector<Link> links_of(std::string_view markdown) {
  std::vector<Link> out;
  static const std::regex kLink(R"(\]\(([^()\s]+)(\s+"[^"]*")?\))");
  bool in_code = false;
  int number = 0;
  for (auto raw : lines_of(markdown)) {
    ++number;
    if (fence_info(raw)) {
      in_code = !in_code;
      continue;
    }
    if (in_code) continue;
    std::string text;  // the line without its code spans
    bool span = false;
    for (char c : raw) {
      if (c == '`')
        span = !span;
      else if (!span)
        text += c;
    }
    for (std::sregex_iterator it(text.begin(), text.end(), kLink), end; it != end; ++it)
      out.push_back({number, (*it)[1].str()});
  }
  return out;
}

std::string slug(std::string_view heading) {
  // Non-ASCII punctuation GitHub drops; other non-ASCII characters (letters) are kept.
  static const std::vector<std::string_view> kDropped = {"—", "–", "§", "→", "←", "×", "·",
                                                         "…", "’", "“", "”", "≤", "≥", "−"};
  std::string out;
  for (std::size_t i = 0; i < heading.size();) {
    const auto c = static_cast<unsigned char>(heading[i]);
    if (c >= 0x80) {
      bool dropped = false;
      for (auto d : kDropped)
        if (heading.substr(i, d.size()) == d) {
          i += d.size();
          dropped = true;
          break;
        }
      if (!dropped) out += heading[i++];
      continue;
    }
    if (std::isalnum(c))
      out += static_cast<char>(std::tolower(c));
    else if (c == ' ' || c == '-')
      out += '-';
    else if (c == '_')
      out += '_';
    ++i;
  }
  return out;
}

std::vector<std::string> anchors_of(std::string_view markdown) {
  std::vector<std::string> out;
  std::map<std::string, int> seen_count;
  bool in_code = false;
  for (auto raw : lines_of(markdown)) {
    if (fence_info(raw)) {
      in_code = !in_code;
      continue;
    }
    if (in_code || raw.empty() || raw.front() != '#') continue;
    auto text = raw.substr(raw.find_first_not_of('#'));
    std::string plain;  // code spans keep their text, without the backticks
    for (char c : trim(text))
      if (c != '`') plain += c;
    auto s = slug(plain);
    // GitHub numbers repeated headings: "x", "x-1", "x-2".
    const int seen = seen_count[s]++;
    out.push_back(seen ? s + "-" + std::to_string(seen) : s);
  }
  return out;
}

std::optional<std::string> link_problem(const std::filesystem::path& root,
                                        const std::filesystem::path& file,
                                        const std::string& target) {
  namespace fs = std::filesystem;
  for (const char* scheme : {"http://", "https://", "mailto:"})
    if (target.rfind(scheme, 0) == 0) return std::nullopt;
  if (target.find("://") != std::string::npos) return "'" + target + "' is not a repository file";
  auto hash = target.find('#');
  const std::string path = target.substr(0, hash);
  const std::string anchor = hash == std::string::npos ? "" : target.substr(hash + 1);
  if (!path.empty() && path.front() == '/')
    return "'" + target + "' is an absolute path: links are relative to the page";
  const fs::path base = fs::weakly_canonical(root);
  const fs::path resolved =
      path.empty() ? fs::weakly_canonical(file) : fs::weakly_canonical(file.parent_path() / path);
  auto inside = resolved.lexically_relative(base);
  if (inside.empty() || *inside.begin() == "..")
    return "'" + target + "' points outside the repository";
  if (!fs::exists(resolved)) return "'" + target + "': no such file in the repository";
  if (anchor.empty()) return std::nullopt;
  if (resolved.extension() != ".md") return std::nullopt;
  std::ifstream in(resolved);
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& a : anchors_of(text.str()))
    if (a == anchor) return std::nullopt;
  return "'" + target + "': no heading with the anchor '#" + anchor + "'";
}

}  // namespace referee::games::pages
