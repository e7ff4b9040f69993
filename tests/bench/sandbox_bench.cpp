// The cost of the sandbox (engines/sandbox.h): an engine's start and one ply's round trip, with
// and without bubblewrap (BENCHMARKS.md). Prints figures, asserts nothing.
//
// The engines: /bin/cat (it echoes each line with one read and one write: no engine time at
// all) and a Python 3 loop doing the same. A start is Process::spawn, one round trip and
// shut_down (stdin closed, exit awaited, tree killed): what a game pays once per engine. A
// round trip is one write_line and the read_line of its echo: what a game pays per ply.
//
// Usage: sandbox_bench [STARTS [ROUND_TRIPS]]   (defaults 50 and 5000)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "engines/process.h"

using namespace referee::engines;
using namespace std::chrono_literals;

namespace {

struct Engine {
  const char* name;
  SpawnSpec spec;
};

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// Median and 90th percentile, in the unit given.
struct Spread {
  double median, p90;
};
Spread spread(std::vector<double> v, double unit) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2] / unit, v[v.size() * 9 / 10] / unit};
}

bool round_trip(Process& p) {
  if (!p.write_line("ping", Clock::now() + 5s)) return false;
  const ReadResult r = p.read_line(Clock::now() + 5s);
  return r.status == ReadStatus::Line && r.line == "ping";
}

Process spawn_or_die(const SpawnSpec& spec) {
  auto p = Process::spawn(spec);
  if (!p) {
    std::fprintf(stderr, "sandbox_bench: %s\n", p.error().c_str());
    std::exit(1);
  }
  return std::move(p).value();
}

void measure(const Engine& engine, int starts, int trips) {
  std::vector<double> start_us, trip_us;
  for (int i = 0; i < starts; ++i) {
    const auto t0 = Clock::now();
    Process p = spawn_or_die(engine.spec);
    if (!round_trip(p)) {
      std::fprintf(stderr, "sandbox_bench: %s did not answer: %s\n", engine.name,
                   p.stderr_tail().c_str());
      std::exit(1);
    }
    p.shut_down(2000ms, 200ms);
    start_us.push_back(micros_since(t0));
  }
  Process p = spawn_or_die(engine.spec);
  for (int i = 0; i < trips; ++i) {
    const auto t0 = Clock::now();
    if (!round_trip(p)) {
      std::fprintf(stderr, "sandbox_bench: %s did not answer\n", engine.name);
      std::exit(1);
    }
    trip_us.push_back(micros_since(t0));
  }
  p.shut_down(2000ms, 200ms);
  const Spread s = spread(start_us, 1000.0), t = spread(trip_us, 1.0);
  std::printf("| %s | %.1f | %.1f | %.1f | %.1f |\n", engine.name, s.median, s.p90, t.median,
              t.p90);
}

}  // namespace

int main(int argc, char** argv) {
  const int starts = argc > 1 ? std::atoi(argv[1]) : 50;
  const int trips = argc > 2 ? std::atoi(argv[2]) : 5000;
  if (starts < 1 || trips < 1) {
    std::fprintf(stderr, "usage: sandbox_bench [STARTS [ROUND_TRIPS]]\n");
    return 2;
  }
  const std::vector<std::string> python = {
      "-u", "-c", "import sys\nfor line in sys.stdin:\n    sys.stdout.write(line)\n"};
  std::vector<Engine> engines;
  for (bool sandboxed : {false, true}) {
    SpawnSpec cat, py;
    cat.command = sandboxed ? "cat" : "/bin/cat";
    py.command = sandboxed ? "python3" : "/usr/bin/python3";
    py.args = python;
    if (sandboxed) cat.sandbox = py.sandbox = Sandbox{};
    engines.push_back({sandboxed ? "cat, sandboxed" : "cat", cat});
    engines.push_back({sandboxed ? "python3, sandboxed" : "python3", py});
  }
  std::printf("%d starts, %d round trips per engine\n\n", starts, trips);
  std::printf(
      "| engine | start median (ms) | start p90 (ms) | round trip median (µs) | "
      "round trip p90 (µs) |\n|---|---|---|---|---|\n");
  for (const Engine& engine : engines) measure(engine, starts, trips);
  return 0;
}
