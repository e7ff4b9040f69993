#include "games/egdb/solver.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace referee::games::egdb {

int value_of(const Model& m, const Layers& layers, const Pos& pos, int seeds, const Values* current,
             int current_seeds) {
  if (captured_out(m, pos)) return rows_value(pos.holes);
  const Values& v = seeds == current_seeds ? *current : layers[static_cast<std::size_t>(seeds)];
  return v[index_of(m, pos, seeds)];
}

int child_value(const Model& m, const Layers& layers, const Child& c, const Values* current,
                int current_seeds) {
  const int v = value_of(m, layers, c.pos, seeds_on(c.pos.holes), current, current_seeds);
  return c.gain + (c.same_mover ? v : -v);
}

namespace {

// One iteration over positions [begin, end): writes `next` from `prev`; returns how many changed.
std::uint64_t iterate_slice(const Model& m, const Layers& below, int seeds, const Values& prev,
                            Values& next, Settled& settled, int iteration, std::uint64_t begin,
                            std::uint64_t end) {
  std::uint64_t changed = 0;
  std::vector<Child> kids;
  std::vector<int> scratch;
  const std::uint64_t per_split = boards(seeds);
  Pos pos;
  for (std::uint64_t i = begin; i < end; ++i) {
    if (i == begin || i % per_split == 0)
      pos = position_at(m, i, seeds);
    else
      next_board(pos.holes);
    children(m, pos, kids, scratch);
    int best = rows_value(pos.holes);
    if (!kids.empty()) {
      best = -128;
      for (const Child& c : kids) best = std::max(best, child_value(m, below, c, &prev, seeds));
    }
    next[i] = static_cast<std::int8_t>(best);
    if (next[i] != prev[i]) {
      ++changed;
      settled[i] = static_cast<std::uint8_t>(iteration);
    }
  }
  return changed;
}

}  // namespace

LayerResult solve_layer(const Model& m, const Layers& below, int seeds, int threads,
                        const IterationProgress& progress) {
  const std::uint64_t size = m.layer_size(seeds);
  LayerResult r;
  Values prev(size);
  for (std::uint64_t i = 0; i < size; ++i)
    prev[i] = static_cast<std::int8_t>(rows_value(position_at(m, i, seeds).holes));
  Values next(size);
  r.settled.assign(size, 0);
  const int limit = m.family == Family::Awale && m.nocapture > 0
                        ? std::min(m.nocapture, kIterationLimit)
                        : kIterationLimit;
  const auto workers = static_cast<std::uint64_t>(std::max(1, threads));
  for (int it = 1; it <= limit; ++it) {
    std::atomic<std::uint64_t> changed{0};
    std::vector<std::thread> pool;
    for (std::uint64_t w = 0; w < workers; ++w) {
      const std::uint64_t begin = size * w / workers, end = size * (w + 1) / workers;
      pool.emplace_back([&, begin, end] {
        changed += iterate_slice(m, below, seeds, prev, next, r.settled, it, begin, end);
      });
    }
    for (auto& t : pool) t.join();
    r.iterations = it;
    if (progress) progress(it, changed);
    prev.swap(next);
    if (changed == 0) {
      r.converged_at = it - 1;
      break;
    }
  }
  r.values = std::move(prev);
  return r;
}

}  // namespace referee::games::egdb
