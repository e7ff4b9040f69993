#include "match/transcript.h"

#include <algorithm>

namespace referee::match {

Transcript::Transcript(TranscriptCaps caps, bool enabled) : enabled_(enabled) {
  output_.head_cap = caps.output_head;
  output_.tail_cap = caps.output_tail;
  stderr_.head_cap = caps.stderr_head;
  stderr_.tail_cap = caps.stderr_tail;
}

void Transcript::start(Clock::time_point since, int seat) {
  since_ = since;
  seat_ = seat;
}

void Transcript::add(char direction, std::string_view text, Clock::time_point at) {
  if (!enabled_) return;
  Entry entry{seq_++, at, direction, std::string(text)};
  if (direction == '<')
    add_to(output_, std::move(entry));
  else if (direction == '!')
    add_to(stderr_, std::move(entry));
  else
    kept_.push_back(std::move(entry));
}

void Transcript::add_to(Stream& s, Entry entry) {
  const std::size_t cost = entry.text.size() + kLineOverhead;
  if (!s.tailing && s.head_used + cost <= s.head_cap) {
    s.head_used += cost;
    kept_.push_back(std::move(entry));
    return;
  }
  s.tailing = true;
  s.tail_used += cost;
  s.tail.push_back(std::move(entry));
  while (s.tail_used > s.tail_cap && !s.tail.empty()) {
    Entry& gone = s.tail.front();
    if (s.dropped_lines == 0) {
      s.first_dropped_seq = gone.seq;
      s.first_dropped_at = gone.at;
    }
    ++s.dropped_lines;
    s.dropped_bytes += gone.text.size();
    s.tail_used -= gone.text.size() + kLineOverhead;
    s.tail.pop_front();
  }
}

storage::LogLine Transcript::line_of(Entry&& e) const {
  const auto us = std::max<long long>(
      0, std::chrono::duration_cast<std::chrono::microseconds>(e.at - since_).count());
  return {seat_, e.direction, std::move(e.text), static_cast<long>(us / 1000),
          static_cast<int>(us % 1000)};
}

std::vector<storage::LogLine> Transcript::take() {
  std::vector<Entry> entries;
  entries.swap(kept_);
  bool reorder = false;
  for (Stream* s : {&output_, &stderr_}) {
    if (s->dropped_lines > 0) {
      entries.push_back({s->first_dropped_seq, s->first_dropped_at, '!',
                         "referee: " + std::to_string(s->dropped_lines) + " lines (" +
                             std::to_string(s->dropped_bytes) + " bytes) of " +
                             (s == &output_ ? "stdout" : "stderr") +
                             " dropped here (kept per game: the first " +
                             std::to_string(s->head_cap) + " and the last " +
                             std::to_string(s->tail_cap) + " bytes)"});
    }
    reorder = reorder || s->tailing;
    for (auto& e : s->tail) entries.push_back(std::move(e));
    Stream fresh;
    fresh.head_cap = s->head_cap;
    fresh.tail_cap = s->tail_cap;
    *s = std::move(fresh);
  }
  if (reorder)
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.seq < b.seq; });
  std::vector<storage::LogLine> out;
  out.reserve(entries.size());
  for (auto& e : entries) out.push_back(line_of(std::move(e)));
  return out;
}

}  // namespace referee::match
