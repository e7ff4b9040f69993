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
// - Exports read the games a page (100) at a time on one read connection and write each page as
//   it is formatted: memory stays flat whatever the number of games. Finished games only, oldest
//   first, like `referee export`.
#include "service/api.h"

namespace referee::service {

namespace {

using httplib::Request;
using httplib::Response;

constexpr auto kFlushInterval = std::chrono::milliseconds(100);
constexpr auto kPing = std::chrono::seconds(15);
constexpr int kExportPage = 100;

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
  res.set_chunked_content_provider("text/event-stream", [state](std::size_t,
                                                                httplib::DataSink& sink) {
    if (!state->greeted) {
      state->greeted = true;
      static const std::string hello = "retry: 3000\n: referee live stream\n\n";
      return sink.write(hello.data(), hello.size());
    }
    auto batch = state->core.stream.wait(
        state->cursor, state->event, std::chrono::duration_cast<std::chrono::milliseconds>(kPing));
    if (batch.closed) {
      sink.done();
      return true;
    }
    std::string text;
    if (batch.missed > 0)
      text += "event: lost\ndata: {\"missed\":" + std::to_string(batch.missed) + "}\n\n";
    for (const auto& m : batch.messages) text += m->frame;
    if (text.empty()) text = ": ping\n\n";
    if (!sink.write(text.data(), text.size())) return false;
    // The flush interval: a client takes at most one batch per interval.
    const auto until = SteadyClock::now() + kFlushInterval;
    while (SteadyClock::now() < until && !state->core.stream.closed())
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return true;
  });
}

struct ExportState {
  ReadPool::Lease store;
  storage::GamePageQuery query;
  std::string format;
  bool first = true;
};

void export_games(Core& core, const Request& req, Response& res) {
  if (auto bad = check_params(req, {"format", "event", "game", "engine"}); !bad.empty())
    return reply_error(res, 400, bad);
  const std::string format = req.get_param_value("format");
  if (format != "pgn" && format != "jsonl" && format != "csv")
    return reply_error(res, 400, "format must be pgn, jsonl or csv (got '" + format + "')");
  storage::GamePageQuery query;
  if (req.has_param("event")) {
    auto id = parse_id(req.get_param_value("event"));
    if (!id) return reply_error(res, 400, "bad event id '" + req.get_param_value("event") + "'");
    query.event = *id;
  }
  query.game_prefix = req.get_param_value("game");
  query.engine = req.get_param_value("engine");
  query.status = "finished";
  query.newest_first = false;
  query.limit = kExportPage;
  query.count_total = false;
  auto store = core.reads->get();
  if (!store) return reply_error(res, 503, "storage: " + store.error());
  auto state = std::make_shared<ExportState>(ExportState{std::move(*store), query, format});
  const char* type = format == "pgn"     ? "application/x-chess-pgn"
                     : format == "jsonl" ? "application/x-ndjson"
                                         : "text/csv; charset=utf-8";
  res.status = 200;
  res.set_header("Content-Disposition", "attachment; filename=\"referee." + format + "\"");
  res.set_chunked_content_provider(type, [state](std::size_t, httplib::DataSink& sink) {
    auto page = state->store->game_page(state->query);
    if (!page) return false;  // the connection ends; the client sees a truncated transfer
    if (page->games.empty()) {
      if (state->first && state->format == "csv") {
        const std::string header = storage::export_csv({});
        sink.write(header.data(), header.size());
      }
      sink.done();
      return true;
    }
    std::string text;
    if (state->format == "csv") {
      text = storage::export_csv(page->games);
      if (!state->first) text.erase(0, text.find("\r\n") + 2);  // the header once
    } else {
      std::vector<std::vector<storage::MoveRecord>> moves;
      for (const auto& g : page->games) {
        auto m = state->store->moves(g.id);
        if (!m) return false;
        moves.push_back(std::move(*m));
      }
      text = state->format == "pgn" ? storage::export_pgn(page->games, moves)
                                    : storage::export_jsonl(page->games, moves);
    }
    state->first = false;
    state->query.after_id = page->games.back().id;
    return sink.write(text.data(), text.size());
  });
}

}  // namespace

void install_stream_routes(httplib::Server& server, Core& core) {
  server.Get("/api/stream", [&core](const Request& req, Response& res) { stream(core, req, res); });
  server.Get("/api/export",
             [&core](const Request& req, Response& res) { export_games(core, req, res); });
}

}  // namespace referee::service
