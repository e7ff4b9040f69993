#include "games/egdb/build.h"

#include <chrono>
#include <filesystem>
#include <fstream>

#include "games/egdb/solver.h"
#include "games/egdb/table_file.h"

namespace referee::games::egdb {

namespace {

namespace fs = std::filesystem;

// The whole layers already in `path` (none when there is no file), checked against `m`.
Expected<Header> existing(const Model& m, const std::string& path, Layers& layers) {
  // Only the values are kept: the settled iterations of finished layers are not needed again.
  Header h;
  h.game = m.key;
  h.checksum = fnv1a(m.key.data(), m.key.size());
  h.converged_at.fill(-1);
  std::error_code ec;
  if (!fs::exists(path, ec)) return h;
  std::ifstream in(path, std::ios::binary);
  std::string head(kHeaderBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(kHeaderBytes));
  if (!in) return Error{path + " exists and is not an endgame table (too short)"};
  auto found = decode_header(head, path);
  if (!found) return found.failure();
  if (found->game != m.key)
    return Error{path + " holds a table of '" + found->game + "', not of '" + m.key + "'",
                 ErrorKind::Conflict};
  std::uint64_t sum = fnv1a(m.key.data(), m.key.size());
  for (int n = 0; n < found->layers; ++n) {
    Values v(m.layer_size(n));
    Settled k(m.layer_size(n));
    in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size()));
    in.read(reinterpret_cast<char*>(k.data()), static_cast<std::streamsize>(k.size()));
    if (!in) return Error{path + ": truncated (layer of " + std::to_string(n) + " seeds)"};
    sum = fnv1a(k.data(), k.size(), fnv1a(v.data(), v.size(), sum));
    layers.push_back(std::move(v));
  }
  if (sum != found->checksum)
    return Error{path + ": checksum mismatch: the file is corrupted (delete it to rebuild)"};
  return found;
}

Status write_layer(const std::string& path, const Model& m, const Header& h, const LayerResult& r,
                   int seeds) {
  {
    // Cut off whatever an interrupted run left after the whole layers, then append.
    std::error_code ec;
    const std::uint64_t at = layer_offset(m, seeds);
    if (fs::exists(path, ec) && fs::file_size(path, ec) > at) fs::resize_file(path, at, ec);
    if (ec) return Error{path + ": " + ec.message(), ErrorKind::Io};
  }
  std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
  if (!out) return Error{"cannot write " + path, ErrorKind::Io};
  out.seekp(static_cast<std::streamoff>(layer_offset(m, seeds)));
  out.write(reinterpret_cast<const char*>(r.values.data()),
            static_cast<std::streamsize>(r.values.size()));
  out.write(reinterpret_cast<const char*>(r.settled.data()),
            static_cast<std::streamsize>(r.settled.size()));
  out.flush();
  // The header last: until it says so, the layer is not part of the table.
  const std::string head = encode_header(h);
  out.seekp(0);
  out.write(head.data(), static_cast<std::streamsize>(head.size()));
  out.flush();
  if (!out) return Error{"cannot write " + path + " (disk full?)", ErrorKind::Io};
  return Ok{};
}

}  // namespace

Expected<BuildReport> build_table(const Game& game, const BuildOptions& o) {
  auto m = model_for(game);
  if (!m) return m.failure();
  if (o.seeds < 0 || o.seeds > kMaxSeeds)
    return Error{"--seeds " + std::to_string(o.seeds) + " is out of range (0.." +
                 std::to_string(kMaxSeeds) + ")"};
  Layers layers;
  auto h = existing(*m, o.path, layers);
  if (!h) return h.failure();
  BuildReport report;
  report.resumed_layers = h->layers;
  if (h->layers == 0) {
    std::ofstream create(o.path, std::ios::binary | std::ios::trunc);
    const std::string head = encode_header(*h);
    create.write(head.data(), static_cast<std::streamsize>(head.size()));
    if (!create) return Error{"cannot write " + o.path, ErrorKind::Io};
  }
  auto say = [&](const std::string& line) {
    if (o.progress) o.progress(line);
  };
  if (h->layers > 0) say("resuming: " + std::to_string(h->layers - 1) + " seeds already solved");
  for (int n = h->layers; n <= o.seeds; ++n) {
    const auto start = std::chrono::steady_clock::now();
    LayerFigures f{n, m->layer_size(n)};
    say("layer " + std::to_string(n) + ": " + std::to_string(f.positions) + " positions");
    LayerResult r = solve_layer(*m, layers, n, o.threads, [&](int it, std::uint64_t changed) {
      const double s =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      say("layer " + std::to_string(n) + ": iteration " + std::to_string(it) + ", " +
          std::to_string(changed) + " changed, " + std::to_string(static_cast<int>(s)) + " s");
    });
    f.iterations = r.iterations;
    f.converged_at = r.converged_at;
    f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    h->checksum = fnv1a(r.settled.data(), r.settled.size(),
                        fnv1a(r.values.data(), r.values.size(), h->checksum));
    h->converged_at[static_cast<std::size_t>(n)] = r.converged_at;
    h->layers = n + 1;
    auto w = write_layer(o.path, *m, *h, r, n);
    if (!w) return w.failure();
    layers.push_back(std::move(r.values));
    report.solved.push_back(f);
  }
  report.checksum = h->checksum;
  report.seeds = h->layers - 1;
  report.file_bytes = layer_offset(*m, h->layers);
  return report;
}

}  // namespace referee::games::egdb
