// GET /api/stream (Server-Sent Events) and GET /api/export (chunked): the two answers that are
// written bit by bit over one connection (see api.h).
//
// Decisions:
// - A stream client gets "retry: 3000" first, then batches of messages at most every
//   kFlushInterval (the Broadcaster coalesces moves of one game and standings of one event within
//   a batch), ": ping" after kPing of silence (a dead peer is found by the write failing), and
//   "event: lost" with {"missed": N} when it fell so far behind that messages were dropped (a
//   client then reloads what it shows). Last-Event-ID resumes from the ring when it still holds
//   the messages after it.
// - At most max_stream_clients streams at once; beyond, 503: each holds one HTTP thread.
// - Exports are `referee export`'s own code (ratings/export_games.h): the same filters, checked
//   the same way (selection_query: an unknown game, engine, tournament or time control is a 400),
//   the games in schedule order, written one at a time into the chunked reply as 64 KiB blocks
//   (memory stays flat whatever the number of games). Finished games only. The export holds one
//   read connection and one read snapshot for its whole length (a consistent file, as the CLI's);
//   a client that goes away makes the next block's write fail and the export stop.
#include "service/api.h"

#include <ostream>
#include <streambuf>

#include "ratings/export_games.h"
#include "ratings/selection.h"

namespace referee::service {

namespace {

constexpr auto kFlushInterval = std::chrono::milliseconds(100);
constexpr auto kPing = std::chrono::seconds(15);
constexpr std::size_t kMaxBatchBytes = 128 * 1024;

struct StreamState {
  StreamState(Core& c, std::int64_t e, std::uint64_t cursor_at)
      : core(c), subscription(c.stream), event(e), cursor(cursor_at) {}
  Core& core;
  Broadcaster::Subscription subscription;
  std::int64_t event;
  std::uint64_t cursor;
  bool greeted = false;
};

void stream(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {"event"}); !bad.empty()) return reply_error(res, 400, bad);
  std::int64_t event = 0;
  if (req.has_param("event")) {
    auto id = parse_id(req.get_param_value("event"));
    if (!id) return reply_error(res, 400, "bad event id '" + req.get_param_value("event") + "'");
    event = *id;
  }
  if (core.stream.subscribers() >= core.options.max_stream_clients)
    return reply_error(res, 503,
                       "too many live-stream clients (" +
                           std::to_string(core.options.max_stream_clients) + "); try again later");
  if (core.stream.closed()) return reply_error(res, 503, "the daemon is stopping");
  std::uint64_t cursor = core.stream.head();
  if (req.has_header("Last-Event-ID")) {
    const std::string last = req.get_header_value("Last-Event-ID");
    if (auto id = parse_id(last); id && static_cast<std::uint64_t>(*id) <= cursor)
      cursor = static_cast<std::uint64_t>(*id);
  }
  auto state = std::make_shared<StreamState>(core, event, cursor);
  res.status = 200;
  res.set_header("Cache-Control", "no-cache");
  res.set_header("X-Accel-Buffering", "no");
  res.set_chunked_content_provider("text/event-stream", [state](http::Sink& sink) {
    if (!state->greeted) {
      state->greeted = true;
      static const std::string hello = "retry: 3000\n: referee live stream\n\n";
      return sink.write(hello.data(), hello.size());
    }
    auto batch = state->core.stream.wait(
        state->cursor, state->event, std::chrono::duration_cast<std::chrono::milliseconds>(kPing));
    if (batch.closed) {
      sink.done();
      return false;
    }
    // A client that fell behind (one that stopped reading, whose writes waited) would get the
    // whole ring at once; past kMaxBatchBytes the rest is counted as missed, as when it falls
    // behind the ring itself, and the client reloads what it shows.
    std::string text;
    std::uint64_t missed = batch.missed;
    for (const auto& m : batch.messages) {
      if (text.size() + m->frame.size() > kMaxBatchBytes)
        ++missed;
      else
        text += m->frame;
    }
    if (missed > 0) text += "event: lost\ndata: {\"missed\":" + std::to_string(missed) + "}\n\n";
    if (text.empty()) text = ": ping\n\n";
    if (!sink.write(text.data(), text.size())) return false;
    // The flush interval: a client takes at most one batch per interval.
    const auto until = SteadyClock::now() + kFlushInterval;
    while (SteadyClock::now() < until && !state->core.stream.closed())
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return true;
  });
}

// The chunked reply as the stream an ExportWriter writes to, in blocks of kBlock bytes (each
// write is a round trip to the server's I/O thread): a write the client no longer reads fails
// the stream.
class SinkBuffer : public std::streambuf {
 public:
  explicit SinkBuffer(http::Sink& sink) : sink_(sink) { setp(block_, block_ + sizeof block_); }

 protected:
  int_type overflow(int_type c) override {
    if (!flush()) return traits_type::eof();
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    *pptr() = traits_type::to_char_type(c);
    pbump(1);
    return c;
  }
  int sync() override { return flush() ? 0 : -1; }

 private:
  bool flush() {
    const auto n = static_cast<std::size_t>(pptr() - pbase());
    setp(block_, block_ + sizeof block_);
    return n == 0 || sink_.write(block_, n);
  }

  static constexpr std::size_t kBlock = 64 * 1024;
  http::Sink& sink_;
  char block_[kBlock];
};

struct ExportState {
  ReadPool::Lease store;
  ratings::ExportRequest request;
};

// "1" or "0" (absent: false); false with `error` set otherwise.
bool flag_param(const Request& req, const char* name, bool& value, std::string& error) {
  if (!req.has_param(name)) return true;
  const std::string text = req.get_param_value(name);
  if (text != "1" && text != "0") {
    error = std::string(name) + " must be 1 or 0 (got '" + text + "')";
    return false;
  }
  value = text == "1";
  return true;
}

// A selection error in the API's words: the parameter's name instead of the CLI's option.
std::string parameter_words(std::string text) {
  for (const auto& [option, parameter] :
       std::initializer_list<std::pair<std::string, std::string>>{{"--min-games", "min_games"},
                                                                  {"--no-moves", "no_moves"},
                                                                  {"--no-clock", "no_clock"},
                                                                  {"--pairwise", "pairwise"},
                                                                  {"--game", "game"},
                                                                  {"--tournament", "tournament"},
                                                                  {"--engine", "engine"},
                                                                  {"--since", "since"},
                                                                  {"--until", "until"},
                                                                  {"--tc", "tc"}})
    for (auto at = text.find(option); at != std::string::npos; at = text.find(option, at))
      text.replace(at, option.size(), parameter);
  return text;
}

void export_route(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req,
                              {"format", "event", "tournament", "game", "engine", "since", "until",
                               "tc", "min_games", "no_moves", "no_clock", "pairwise"},
                              {"engine"});
      !bad.empty())
    return reply_error(res, 400, bad);
  const std::string format = req.get_param_value("format");
  ratings::ExportRequest request;
  if (auto kind = ratings::export_format(format))
    request.format = *kind;
  else
    return reply_error(res, 400, "format must be pgn, jsonl or csv (got '" + format + "')");
  std::string error;
  bool no_moves = false, no_clock = false, pairwise = false;
  if (!flag_param(req, "no_moves", no_moves, error) ||
      !flag_param(req, "no_clock", no_clock, error) ||
      !flag_param(req, "pairwise", pairwise, error))
    return reply_error(res, 400, error);
  request.options.moves = !no_moves;
  request.options.clocks = !no_clock;
  request.options.pairwise = pairwise;
  if (auto bad = ratings::export_options_error(request.format, request.options); !bad.empty())
    return reply_error(res, 400, parameter_words(bad));
  auto min_games = int_param(req, "min_games", 0, 1'000'000'000, 0, error);
  if (!min_games) return reply_error(res, 400, error);
  request.min_games = static_cast<int>(*min_games);
  std::optional<std::int64_t> event;
  if (req.has_param("event")) {
    event = parse_id(req.get_param_value("event"));
    if (!event) return reply_error(res, 400, "bad event id '" + req.get_param_value("event") + "'");
  }
  ratings::GameSelection selection;
  selection.game = req.get_param_value("game");
  selection.event_name = req.get_param_value("tournament");
  for (std::size_t k = 0; k < req.get_param_value_count("engine"); ++k)
    selection.engines.push_back(req.get_param_value("engine", k));
  selection.since = req.get_param_value("since");
  selection.until = req.get_param_value("until");
  selection.tc = req.get_param_value("tc");
  selection.min_games = request.min_games;
  auto store = core.reads->get();
  if (!store) return reply_error(res, 503, "storage: " + store.error());
  auto prepared = ratings::selection_query(**store, selection);
  if (!prepared.query)
    return reply_error(
        res, prepared.bad_option ? 400 : 503,
        prepared.bad_option ? parameter_words(prepared.error) : "storage: " + prepared.error);
  request.query = std::move(*prepared.query);
  request.query.event_id = event;
  request.destination = "the HTTP reply";
  auto state = std::make_shared<ExportState>(ExportState{std::move(*store), std::move(request)});
  const char* type = format == "pgn"     ? "application/x-chess-pgn"
                     : format == "jsonl" ? "application/x-ndjson"
                                         : "text/csv; charset=utf-8";
  res.status = 200;
  res.set_header("Content-Disposition", "attachment; filename=\"referee." + format + "\"");
  res.set_chunked_content_provider(type, [state](http::Sink& sink) {
    auto buffer = std::make_unique<SinkBuffer>(sink);
    std::ostream out(buffer.get());
    // The whole export in this one call; a failure ends the connection, and the client sees a
    // truncated transfer.
    if (!ratings::export_games(*state->store, state->request, out) || !out.flush()) return false;
    sink.done();
    return false;
  });
}

}  // namespace

void install_stream_routes(http::Router& router, Core& core) {
  router.get("/api/stream", [&core](const Request& req, Response& res) { stream(core, req, res); });
  router.get("/api/export",
             [&core](const Request& req, Response& res) { export_route(core, req, res); });
}

}  // namespace referee::service
