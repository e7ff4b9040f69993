#include "match/engine_session.h"

#include <algorithm>
#include <deque>
#include <thread>

#include "match/error_line.h"

namespace referee::match {

using engines::Clock;
using engines::ReadStatus;

std::string fault_name(Fault fault) {
  switch (fault) {
    case Fault::None:
      return "none";
    case Fault::NoStart:
      return "nostart";
    case Fault::Timeout:
      return "time";
    case Fault::Crash:
      return "crash";
    case Fault::Stall:
      return "stall";
    case Fault::Protocol:
      return "protocol";
    case Fault::Illegal:
      return "illegal";
    case Fault::Resign:
      return "resign";
    case Fault::Unsupported:
      return "unsupported";
  }
  return "unknown";
}

namespace {

// Is the line a bestmove (well-formed or not)? Leading blanks are ignored, as by the parser.
bool is_bestmove(const std::string& line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line.compare(i, 8, "bestmove") != 0) return false;
  return i + 8 == line.size() || line[i + 8] == ' ' || line[i + 8] == '\t';
}

std::string quoted(const std::string& line) {
  return "'" + line.substr(0, 200) + "'";
}

bool blank(std::string_view text) {
  return text.find_first_not_of(" \t") == std::string_view::npos;
}

std::string base_name(const std::string& command) {
  const auto slash = command.find_last_of('/');
  return slash == std::string::npos ? command : command.substr(slash + 1);
}

// "exit 1", "signal 11: Segmentation fault" (not the process layer's "signal 11 (Segmentation
// fault)", which reads badly inside the crash detail's parentheses), built from the exit's values.
std::string exit_words(const engines::Process& process) {
  if (auto code = process.exit_code()) return "exit " + std::to_string(*code);
  if (auto signal = process.exit_signal())
    return "signal " + std::to_string(*signal) + ": " + engines::signal_description(*signal);
  const std::string description = process.exit_description();  // a keeper lost, or none yet
  return description.empty() ? "no exit status yet" : description;
}

}  // namespace

// Every line exchanged goes through here: to the game's transcript, to --debug, and stderr lines
// to the recent ones kept for a crash's reason. On the heap, so that the stderr sink can point at
// it while the session moves.
struct EngineSession::Tap {
  Tap(const SessionSettings& s, std::string engine_name)
      : transcript(s.log_caps, s.keep_log), debug(s.debug), name(std::move(engine_name)) {
    if (debug) instance = debug->next_instance();
  }

  void add(char direction, std::string_view text, Clock::time_point at) {
    transcript.add(direction, text, at);
    if (debug) debug->line(name, instance, direction, text, at);
    if (direction == '!' && !blank(text)) {
      recent.emplace_back(text.substr(0, kRecentStderrBytes));
      if (recent.size() > kRecentStderrLines) recent.pop_front();
    }
  }

  Transcript transcript;
  DebugLog* debug;
  std::string name;
  int instance = 0;
  std::deque<std::string> recent;  // the last non-empty stderr lines of this game
};

EngineSession::EngineSession(engines::Process process, SessionSettings settings)
    : process_(std::make_unique<engines::Process>(std::move(process))),
      settings_(std::move(settings)) {
  tap_ = std::make_unique<Tap>(settings_, settings_.name);
  process_->on_stderr(
      [tap = tap_.get()](std::string_view line) { tap->add('!', line, Clock::now()); });
  process_->set_budget(phase_budget());
}
EngineSession::EngineSession(EngineSession&&) noexcept = default;
EngineSession& EngineSession::operator=(EngineSession&&) noexcept = default;
EngineSession::~EngineSession() = default;

void EngineSession::close_input() {
  if (!process_) return;
  process_->set_budget(phase_budget());
  process_->shut_down(settings_.quit_grace, settings_.term_grace);
}

const std::string& EngineSession::name() const {
  return tap_->name;
}

void EngineSession::log(char direction, const std::string& text) {
  tap_->add(direction, text, Clock::now());
}

void EngineSession::log(char direction, const std::string& text, Clock::time_point at) {
  tap_->add(direction, text, at);
}

void EngineSession::start_log(Clock::time_point since, int seat) {
  tap_->transcript.start(since, seat);  // lines from the handshake go with this game
}

std::vector<storage::LogLine> EngineSession::take_log() {
  if (process_) process_->flush_stderr();
  tap_->recent.clear();
  return tap_->transcript.take();
}

std::vector<std::string> EngineSession::recent_stderr() const {
  if (process_) process_->flush_stderr();
  return {tap_->recent.begin(), tap_->recent.end()};
}

engines::ReadBudget EngineSession::phase_budget() const {
  return {settings_.max_lines_per_phase, settings_.max_bytes_per_phase};
}

std::string EngineSession::flood_detail(const std::string& when, std::size_t lines,
                                        std::size_t bytes) const {
  return "output flood " + when + ": more than " + std::to_string(lines) + " lines or " +
         std::to_string(bytes) + " bytes";
}

Status EngineSession::write(const std::vector<std::string>& lines, Millis timeout) {
  const auto now = Clock::now();
  return write(lines, now, now + timeout);
}

Status EngineSession::write(const std::vector<std::string>& lines, Clock::time_point now,
                            Clock::time_point deadline) {
  for (const auto& l : lines) log('>', l, now);
  return process_->write_lines(lines, deadline);
}

std::string EngineSession::crash_detail(const std::string& how) {
  // An engine that exits closes its stdout: the end of file may be read before the keeper's
  // report of the exit. Wait for that report a little before saying the engine did not exit.
  bool exited = !process_->running();
  for (const auto until = Clock::now() + Millis(200); !exited && Clock::now() < until;) {
    std::this_thread::sleep_for(Millis(2));
    exited = !process_->running();
  }
  process_->shut_down(Millis(200), Millis(200));
  std::string detail = "(";
  if (!exited) detail += how + ", then ";  // it did not exit by itself: it was ended
  detail += exit_words(*process_) + ")";
  const auto recent = recent_stderr();
  if (!recent.empty()) detail += ": " + error_line(recent);
  return detail;
}

std::string EngineSession::silence_hint(const char* since) const {
  if (!nothing_read()) return "";
  return std::string(" (nothing at all was read from its stdout since ") + since +
         ": does it flush stdout after every line?)";
}

// A write failed: the engine exited, closed its input or does not read it. Its end is waited for
// (briefly) so that the detail can say how it ended.
Fault EngineSession::write_failure(const Status& status, std::string& detail) {
  const auto why = process_->write_failure();
  detail = crash_detail("a write to its input failed: " +
                        (why ? engines::describe(*why) : status.error()));
  return Fault::Crash;
}

Fault EngineSession::read_failure(ReadStatus status, std::string& detail) {
  switch (status) {
    case ReadStatus::Eof:
      detail = crash_detail("closed its stdout");
      return Fault::Crash;
    case ReadStatus::TooLong:
      detail = "line longer than the limit";
      return Fault::Protocol;
    case ReadStatus::BadByte:
      detail = "line with a NUL or control byte";
      return Fault::Protocol;
    case ReadStatus::Flood:
      detail = flood_detail("in this phase", settings_.max_lines_per_phase,
                            settings_.max_bytes_per_phase);
      return Fault::Protocol;
    case ReadStatus::Timeout:
    case ReadStatus::Line:
      break;
  }
  return Fault::None;
}

Expected<EngineSession> EngineSession::start(const engines::SpawnSpec& spec,
                                             const SessionSettings& settings, StartReport* report) {
  auto process = engines::Process::spawn(spec);
  if (!process) return process.failure();
  SessionSettings named = settings;
  if (named.name.empty()) named.name = base_name(spec.command);
  EngineSession session(std::move(*process), std::move(named));
  const auto deadline = Clock::now() + settings.start_timeout;
  auto fail = [&](const std::string& why) -> Expected<EngineSession> {
    if (report) *report = StartReport{true, session.nothing_read()};
    session.process_->shut_down(Millis(0), settings.term_grace);
    return Error{"engine '" + spec.command + "' failed to start: " + why};
  };
  ++session.round_trips_;
  if (auto st = session.write({"ugi"}, settings.start_timeout); !st) {
    std::string detail;
    session.write_failure(st, detail);
    return fail(detail);
  }
  while (true) {
    auto r = session.process_->read_line(deadline);
    if (r.status == ReadStatus::Timeout)
      return fail("no ugiok within " + std::to_string(settings.start_timeout.count()) + " ms" +
                  session.silence_hint("ugi"));
    if (r.status == ReadStatus::Flood)
      return fail(session.flood_detail("before ugiok", settings.max_lines_per_phase,
                                       settings.max_bytes_per_phase));
    std::string detail;
    if (r.status != ReadStatus::Line) {
      session.read_failure(r.status, detail);
      return fail(detail);
    }
    session.log('<', r.line);
    auto msg = protocol::parse_engine_line(r.line);
    if (!msg) continue;  // junk before ugiok is tolerated (banners), up to the phase's budget
    if (auto* id = std::get_if<protocol::IdLine>(&*msg)) {
      if (id->key == "name") session.identity_.name = id->value;
      if (id->key == "author") session.identity_.author = id->value;
      if (id->key == "protocol") session.identity_.protocol = std::atoi(id->value.c_str());
    } else if (auto* g = std::get_if<protocol::GameDecl>(&*msg)) {
      session.identity_.games.push_back(*g);
    } else if (auto* o = std::get_if<protocol::OptionDecl>(&*msg)) {
      session.identity_.options.push_back(*o);
    } else if (std::holds_alternative<protocol::UgiOk>(*msg)) {
      break;
    }
  }
  std::vector<std::string> lines;
  if (session.identity_.protocol >= 1)
    lines.push_back("protocol " + std::to_string(std::min(session.identity_.protocol,
                                                          protocol::kProtocolVersion)));
  else
    session.settings_.protocol0 = true;
  for (const auto& [name, value] : settings.options)
    lines.push_back(protocol::format(protocol::RefereeMessage{protocol::SetOption{name, value}}));
  if (!lines.empty()) {
    if (auto st = session.write(lines, settings.ready_timeout); !st) {
      std::string detail;
      session.write_failure(st, detail);
      return fail(detail);
    }
  }
  return session;
}

bool EngineSession::declares(const std::string& game_name) const {
  if (identity_.games.empty()) return settings_.protocol0;
  return std::any_of(identity_.games.begin(), identity_.games.end(),
                     [&](const protocol::GameDecl& g) { return g.name == game_name; });
}

Fault EngineSession::await_ready(Millis timeout, std::string& detail) {
  const std::string token = std::to_string(ready_token_);
  const auto deadline = Clock::now() + timeout;
  process_->set_budget(phase_budget());
  while (true) {
    auto r = process_->read_line(deadline);
    if (r.status == ReadStatus::Timeout) {
      detail =
          "no readyok within " + std::to_string(timeout.count()) + " ms" + silence_hint("isready");
      return Fault::Stall;
    }
    if (r.status == ReadStatus::Flood) {
      detail = flood_detail("while waiting for readyok", settings_.max_lines_per_phase,
                            settings_.max_bytes_per_phase);
      return Fault::Protocol;
    }
    if (r.status != ReadStatus::Line) return read_failure(r.status, detail);
    log('<', r.line);
    if (is_bestmove(r.line)) {
      detail = stray_bestmove(r.line);
      return Fault::Protocol;
    }
    auto msg = protocol::parse_engine_line(r.line);
    if (!msg) continue;
    if (auto* ready = std::get_if<protocol::ReadyOk>(&*msg)) {
      if (settings_.protocol0 || ready->token == token) return Fault::None;
      if (ready->token.empty()) {
        detail = "readyok without its token (expected 'readyok " + token +
                 "': an engine that says 'id protocol 1' answers 'isready N' with 'readyok N')";
        return Fault::Protocol;
      }
      // Another token: a stale reply to an earlier isready, skipped.
    } else if (auto* err = std::get_if<protocol::EngineError>(&*msg)) {
      // Replies to setoption and to commands the engine does not know are only logged
      // (PROTOCOL.md §7); they arrive here, before the first readyok.
      if (err->kind == "unsupported-option" || err->kind == "unknown-command") continue;
      detail = "engine replied: error " + err->kind + (err->text.empty() ? "" : " " + err->text);
      return err->kind == "unsupported-game" ? Fault::Unsupported : Fault::Protocol;
    }
  }
}

Fault EngineSession::between_requests(std::string& detail) {
  process_->set_budget(phase_budget());
  while (true) {
    auto r = process_->poll_line();
    if (r.status == ReadStatus::Timeout) return Fault::None;
    if (r.status == ReadStatus::Flood) {
      detail = flood_detail("between requests", settings_.max_lines_per_phase,
                            settings_.max_bytes_per_phase);
      return Fault::Protocol;
    }
    if (r.status != ReadStatus::Line) return read_failure(r.status, detail);
    log('<', r.line);
    if (!is_bestmove(r.line)) continue;  // info, late readyok, errors to gameover: logged only
    detail = stray_bestmove(r.line);
    return Fault::Protocol;
  }
}

std::string EngineSession::stray_bestmove(const std::string& line) const {
  switch (last_go_) {
    case LastGo::Answered:
      return "second bestmove to one go: " + quoted(line) + " after " + quoted(last_bestmove_);
    case LastGo::Unanswered:
      return "bestmove after its go was over: " + quoted(line);
    case LastGo::None:
      break;
  }
  return "bestmove without a go: " + quoted(line);
}

Fault EngineSession::prepare(const games::Game& game, std::string& detail) {
  if (Fault f = between_requests(detail); f != Fault::None) return f;
  std::vector<std::string> lines;
  const bool new_game_kind = game.canonical() != current_game_;
  if (new_game_kind && !settings_.protocol0) {
    lines.push_back(
        protocol::format(protocol::RefereeMessage{protocol::setgame_from_spec(game.canonical())}));
    current_game_ = game.canonical();
  }
  lines.push_back("uginewgame");
  ++ready_token_;
  lines.push_back(settings_.protocol0 ? "isready" : "isready " + std::to_string(ready_token_));
  ++round_trips_;
  if (auto st = write(lines, settings_.ready_timeout); !st) return write_failure(st, detail);
  return await_ready(new_game_kind ? settings_.setgame_timeout : settings_.ready_timeout, detail);
}

MoveReply EngineSession::request(const std::string& start_position,
                                 const std::vector<std::string>& moves, const protocol::Go& go,
                                 Millis budget, const std::atomic<bool>* stop) {
  return request_impl(start_position, moves, go, budget, stop, std::nullopt);
}

MoveReply EngineSession::request_and_stop(const std::string& start_position,
                                          const std::vector<std::string>& moves,
                                          const protocol::Go& go, Millis stop_after,
                                          Millis budget) {
  return request_impl(start_position, moves, go, budget, nullptr, stop_after);
}

MoveReply EngineSession::request_impl(const std::string& start_position,
                                      const std::vector<std::string>& moves, const protocol::Go& go,
                                      Millis budget, const std::atomic<bool>* stop,
                                      std::optional<Millis> stop_after) {
  MoveReply reply;
  if ((reply.fault = between_requests(reply.detail)) != Fault::None) return reply;
  const auto sent = Clock::now();
  auto deadline = stop_after ? sent + *stop_after : sent + budget;
  ++round_trips_;
  last_go_ = LastGo::Unanswered;
  // One reused pair of lines: the position line grows with the game, and is written over the
  // last one's buffer instead of a new one each ply.
  request_lines_.resize(2);
  protocol::format_position_into(request_lines_[0], start_position, moves);
  if (settings_.protocol0 && go.player) {  // plain UGI has no `player` (PROTOCOL.md §6)
    protocol::Go plain = go;
    plain.player.reset();
    request_lines_[1] = protocol::format(protocol::RefereeMessage{plain});
  } else {
    request_lines_[1] = protocol::format(protocol::RefereeMessage{go});
  }
  if (auto st = write(request_lines_, sent, deadline); !st) {
    reply.fault = write_failure(st, reply.detail);
    return reply;
  }
  process_->set_budget({settings_.max_lines_per_move, settings_.max_bytes_per_move});
  while (true) {
    auto wait_until = deadline;
    if (stop) wait_until = std::min(deadline, Clock::now() + Millis(100));
    auto r = process_->read_line(wait_until);
    if (r.status == ReadStatus::Timeout) {
      if (stop && stop->load()) return reply;  // interrupted: no move, no fault
      if (Clock::now() < deadline) continue;
      if (stop_after) {  // time to stop the search: the bestmove is due `budget` after it
        stop_after.reset();
        const auto now = Clock::now();
        deadline = now + budget;
        if (auto st = write({"stop"}, now, deadline); !st) {
          reply.fault = write_failure(st, reply.detail);
          return reply;
        }
        continue;
      }
      reply.fault = Fault::Timeout;
      reply.elapsed = std::chrono::duration_cast<Millis>(Clock::now() - sent);
      reply.detail = "no bestmove within " + std::to_string(budget.count()) + " ms" +
                     (sent + budget < deadline ? " of stop" : "") + silence_hint("go");
      return reply;
    }
    if (r.status == ReadStatus::Flood) {
      reply.fault = Fault::Protocol;
      reply.detail =
          flood_detail("for one move", settings_.max_lines_per_move, settings_.max_bytes_per_move);
      return reply;
    }
    if (r.status != ReadStatus::Line) {
      reply.fault = read_failure(r.status, reply.detail);
      return reply;
    }
    const auto got = Clock::now();
    log('<', r.line, got);
    auto msg = protocol::parse_engine_line(r.line);
    if (!msg) {
      if (msg.fault() == protocol::LineFault::Violation) {
        reply.fault = Fault::Protocol;
        reply.detail = msg.error();
        return reply;
      }
      if (r.line.rfind("bestmove", 0) == 0) {  // a malformed bestmove is an illegal move
        reply.fault = Fault::Illegal;
        reply.move = r.line;
        reply.elapsed = std::chrono::duration_cast<Millis>(got - sent);
        reply.detail = "unparseable move line '" + r.line.substr(0, 200) + "'";
        return reply;
      }
      continue;
    }
    if (auto* best = std::get_if<protocol::BestMove>(&*msg)) {
      reply.elapsed = std::chrono::duration_cast<Millis>(got - sent);
      reply.move = best->move;
      last_go_ = LastGo::Answered;
      last_bestmove_ = r.line;
      if (best->move == "resign") reply.fault = Fault::Resign;
      return reply;
    }
    if (const auto* info = std::get_if<protocol::Info>(&*msg)) {
      reply.info = r.line;
      if (info->score_cp || info->score_mate) {
        reply.score_cp = info->score_cp;
        reply.score_mate = info->score_mate;
      }
    } else if (auto* err = std::get_if<protocol::EngineError>(&*msg)) {
      reply.fault = Fault::Protocol;
      reply.detail =
          "engine replied: error " + err->kind + (err->text.empty() ? "" : " " + err->text);
      return reply;
    }
  }
}

void EngineSession::send(const std::string& line) {
  if (process_) (void)write({line}, Millis(200));
}

void EngineSession::quit() {
  if (!process_) return;
  process_->set_budget(phase_budget());  // what it writes from now on is discarded, up to this
  send("quit");
  process_->shut_down(settings_.quit_grace, settings_.term_grace);
}

bool EngineSession::alive() {
  return process_ && process_->running();
}
bool EngineSession::exited_normally() const {
  return process_ && process_->exit_code().has_value();
}

bool EngineSession::nothing_read() const {
  return process_ && process_->stdout_count() == 0;
}

std::string EngineSession::exit_description() {
  return process_ ? process_->exit_description() : "";
}
std::string EngineSession::stderr_tail() {
  return process_ ? process_->stderr_tail() : "";
}

}  // namespace referee::match
